// A host's control channel (lab/transports/hosts.md): newline-delimited JSON, requests one way and
// replies the other. Either the host's own stdin and stdout (a host this process spawned), or a
// connection to a host broker (host-broker.ts) that relays for a host it shares with other lab
// processes: npm test's groups, which otherwise each start every venv's interpreter and every JVM.
import { spawn } from "node:child_process";
import { connect, type Socket } from "node:net";

/** A host to start (`command args`, its environment `env`) and the run's arguments for it. */
export interface HostedRun {
  command: string;
  args: string[];
  env: Record<string, string>;
  argv: string[];
}

export interface HostControl {
  /** the host's pid, once known (a spawned host's at once; a shared host's from the broker's first line) */
  readonly pid: number | undefined;
  /** resolves, when requests may be sent, with the first id this process may use less one: ids
   *  name a run on the host and in its three connections' first lines, so processes sharing a
   *  host number their runs in ranges of their own; rejects when the host could not start */
  readonly ready: Promise<number>;
  send(request: object): void;
  /** ends this process's use of the host: a spawned host is killed, a shared one's runs for this process are */
  stop(): void;
}

export interface ControlEvents {
  /** one line of the host's replies */
  reply(line: string): void;
  /** the host (or the connection to it) is gone; `reason` in words, with the host's last stderr */
  ended(reason: string): void;
}

/** A handler for text in any chunking that calls `onLine` with each whole line (without its newline). */
export function eachLine(onLine: (line: string) => void): (text: string) => void {
  let buffer = "";
  return (text) => {
    buffer += text;
    for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      onLine(line);
    }
  };
}

/** npm test's broker, when this process was started by one (tests/support/parallel.ts). */
export const BROKER_ENV = "LAB_HOST_BROKER";

/** Variables of this process no host reads: the test runner's per-process logs (read by the process
 *  that starts children and servers, tests/support/child-pids.ts) and the broker's own address. */
const NOT_FOR_HOSTS = new Set(["LAB_CHILD_PID_LOG", "LAB_LISTEN_LOG", BROKER_ENV]);

export function openControl(spec: HostedRun, scratch: string, on: ControlEvents): HostControl {
  const broker = process.env[BROKER_ENV];
  return broker ? brokerControl(broker, spec, on) : spawnHost(hostStart(spec), scratch, on);
}

/** A host to start: its command, arguments, environment and folder (what a broker is asked for). */
export interface HostStart {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/** The host `spec` runs in, as this process would start it: this process's environment, then the run's own. */
export function hostStart(spec: HostedRun): HostStart {
  const own = Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !NOT_FOR_HOSTS.has(entry[0]));
  return { command: spec.command, args: spec.args, env: { ...Object.fromEntries(own), ...spec.env }, cwd: process.cwd() };
}

/** Spawns a host (by this process, or by the broker for the processes that share it), with its
 *  scratch folder, the one place hosts are started. It never keeps the spawning process alive. */
export function spawnHost(start: HostStart, scratch: string, on: ControlEvents): HostControl {
  let log = "";
  const child = spawn(start.command, start.args, { cwd: start.cwd, env: { ...start.env, LAB_HOST_SCRATCH: scratch }, stdio: ["pipe", "pipe", "pipe"] });
  child.on("error", (error) => on.ended(`could not start: ${error.message}`));
  child.on("exit", (code, signal) => on.ended(`ended (${signal ?? `exit ${code}`})${log ? `: ${log.slice(-2000)}` : ""}`));
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", eachLine(on.reply));
  child.stderr.on("data", (chunk: Buffer) => (log = (log + chunk.toString("utf8")).slice(-8000)));
  child.stdin.on("error", () => undefined);
  // a run in progress keeps its process alive by its own handles, never the host
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as Socket).unref();
  return {
    pid: child.pid,
    ready: Promise.resolve(0),
    send: (request) => void (child.stdin.writable && child.stdin.write(`${JSON.stringify(request)}\n`)),
    stop: () => void (child.exitCode === null && child.signalCode === null && child.kill("SIGKILL")),
  };
}

/** First line to the broker: the host wanted (one per command, arguments, environment and folder).
 *  The broker answers {"host": PID, "ids": BASE} and then relays; {"ended": REASON} when the host is gone. */
function brokerControl(path: string, spec: HostedRun, on: ControlEvents): HostControl {
  const socket = connect(path);
  let pid: number | undefined;
  let ended = false;
  let settle: { resolve(base: number): void; reject(error: Error): void } | undefined;
  const ready = new Promise<number>((resolve, reject) => (settle = { resolve, reject }));
  ready.catch(() => undefined);
  const end = (reason: string) => {
    if (ended) return;
    ended = true;
    settle!.reject(new Error(reason));
    on.ended(reason);
  };
  socket.write(`${JSON.stringify({ start: hostStart(spec) })}\n`);
  socket.setEncoding("utf8");
  // the broker's own lines ({"host"}, {"ended"}) are read here; the host's replies pass on
  socket.on(
    "data",
    eachLine((line) => {
      const own = /^\{"(host|ended)":/.test(line) ? (JSON.parse(line) as { host?: number; ids?: number; ended?: string }) : undefined;
      if (own?.host !== undefined) settle!.resolve(own.ids ?? 0), (pid = own.host);
      else if (own?.ended !== undefined) end(pid === undefined ? `could not start: ${own.ended}` : own.ended);
      else on.reply(line);
    }),
  );
  socket.on("error", (error) => end(`its broker's connection failed: ${error.message}`));
  socket.on("close", () => end("its broker closed the connection"));
  socket.unref();
  return {
    get pid() {
      return pid;
    },
    ready,
    send: (request) => void (socket.writable && socket.write(`${JSON.stringify(request)}\n`)),
    stop: () => socket.destroy(),
  };
}
