// Which TCP sockets are listening, and who holds them, read from /proc (Linux): the evidence that
// a stopped HTTP server released its port, and the suite's check that no server is left behind.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export interface ListeningSocket {
  port: number;
  inode: number;
}

const LISTEN = "0A";

/** Every TCP socket in LISTEN state on this machine (IPv4 and IPv6). */
export function listeningSockets(): ListeningSocket[] {
  const found: ListeningSocket[] = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const row of text.split("\n").slice(1)) {
      const cols = row.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== LISTEN) continue;
      const port = parseInt(cols[1]!.split(":")[1]!, 16);
      found.push({ port, inode: Number(cols[9]) });
    }
  }
  return found;
}

export const isListening = (port: number): boolean => listeningSockets().some((s) => s.port === port);

/** Socket inodes a process holds open; empty when it is gone (or not ours to read). */
export function socketInodesOf(pid: number | "self"): Set<number> {
  const inodes = new Set<number>();
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return inodes;
  }
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(Number(m[1]));
    } catch {
      // the fd closed while we looked
    }
  }
  return inodes;
}

/** The ports a process is listening on. */
export function listeningPortsOf(pid: number | "self"): number[] {
  const mine = socketInodesOf(pid);
  return listeningSockets().filter((s) => mine.has(s.inode)).map((s) => s.port);
}

/** The processes holding a listening socket on `port` (all of /proc is read: only when asked). */
export function listenersOf(port: number): number[] {
  const inodes = new Set(listeningSockets().filter((s) => s.port === port).map((s) => s.inode));
  if (inodes.size === 0) return [];
  let pids: number[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return [];
  }
  return pids.filter((pid) => [...socketInodesOf(pid)].some((inode) => inodes.has(inode)));
}

/** The parent of a process, or undefined when it is gone. */
export function parentOf(pid: number): number | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after the last ')'
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}
