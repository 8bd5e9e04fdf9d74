// A program run by a host that stays up instead of a fresh process (lab/transports/hosts.md): a
// Python program as a fork of a warm interpreter (lab/peers/python/host.py), which imports the SDK once
// and forks a process per run, with its own pid; a JVM, Go or Rust driver as one session of its own
// `--host` process, on a thread or task of it. Either way a run has its own stdin, stdout and stderr
// (unix socket connections this side accepts) and its own exit status, and is stopped by its own
// handle: a forked run by its pid, a hosted session by the host's `kill` request. To the lab it
// looks as a spawned child does: StdioChild drives it through the same few members. LAB_FRESH=1
// spawns every program fresh.
import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { LAB_DIR } from "../paths.js";
import type { ChildCommand, ClientPeer, ServerPeer } from "../plan/peer.js";
import { openControl, type HostControl, type HostedRun } from "./host-control.js";

export type { HostedRun };

const HOST_PY = join(LAB_DIR, "peers", "python", "host.py");

/** What StdioChild uses of a child process; a spawned ChildProcess and a ForkedProcess both have it. */
export interface ChildLike {
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  readonly stdin: NodeJS.WritableStream & { writable: boolean; writableEnded: boolean; end(): void };
  readonly stdout: NodeJS.ReadableStream;
  readonly stderr: NodeJS.ReadableStream;
  kill(signal?: NodeJS.Signals): boolean;
  once(event: "exit", listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  once(event: "close" | "spawn", listener: () => void): this;
  once(event: "error", listener: (error: Error) => void): this;
}

/** How `command` may run in a host, else undefined. The environment is the host's own, set when the
 *  host starts (PYTHONHASHSEED, say, is read only then): one host per command, arguments and
 *  environment. */
export function hostedRun(command: ChildCommand): HostedRun | undefined {
  if (process.env.LAB_FRESH === "1") return undefined;
  const env = command.env ?? {};
  if (command.host) return { command: command.command, args: [...command.host.args], env, argv: [...command.host.argv] };
  if (command.fork !== "python") return undefined;
  const argv = command.args[0] === "-B" ? command.args.slice(1) : [...command.args];
  // only `python script.py args`: an interpreter option would change what runs
  if (!argv[0]?.endsWith(".py")) return undefined;
  return { command: command.command, args: ["-B", HOST_PY], env, argv };
}

/** The same peer with every program it starts spawned fresh (no `fork`): what a forked run is
 *  compared with (tests/forked.test.ts, bench). A peer that starts no program is returned as it is. */
export function freshClient(peer: ClientPeer): ClientPeer {
  if (peer.driver.kind !== "process") return peer;
  const driver = peer.driver;
  return { ...peer, driver: { ...driver, command: (plan, events) => ({ ...driver.command(plan, events), fork: undefined, host: undefined }) } };
}
export function freshServer(peer: ServerPeer): ServerPeer {
  const child = peer.child;
  if (!child) return peer;
  return { ...peer, child: { ...child, command: (options) => ({ ...child.command(options), fork: undefined, host: undefined }) } };
}

export class ForkedProcess extends EventEmitter implements ChildLike {
  pid: number | undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  /** the host this run was forked from or runs in (its pid), for the evidence */
  hostPid: number | undefined;
  /** a session on a thread or task of its host (no pid of its own): stopped by the host's `kill`
   *  request; absent for a forked process, stopped by its pid */
  private stopSession: ((signal: NodeJS.Signals) => void) | undefined;
  private ended = { stdout: false, stderr: false, exit: false };
  private readonly attached = new Set<string>();

  constructor() {
    super();
    this.stdout.once("end", () => this.streamEnded("stdout"));
    this.stderr.once("end", () => this.streamEnded("stderr"));
  }

  kill(signal: NodeJS.Signals = "SIGTERM"): boolean {
    if (this.pid === undefined || this.exitCode !== null || this.signalCode !== null) return false;
    if (this.stopSession) return this.stopSession(signal), true;
    try {
      process.kill(this.pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  get hosted(): boolean {
    return this.stopSession !== undefined;
  }

  started(pid: number, hostPid: number, stopSession?: (signal: NodeJS.Signals) => void): void {
    this.pid = pid;
    this.hostPid = hostPid;
    this.stopSession = stopSession;
    this.emit("spawn");
  }

  exited(code: number | null, signal: NodeJS.Signals | null): void {
    this.exitCode = code;
    this.signalCode = signal;
    this.ended.exit = true;
    this.emit("exit", code, signal);
    this.maybeClose();
  }

  private streamEnded(name: "stdout" | "stderr"): void {
    this.ended[name] = true;
    this.maybeClose();
  }

  private maybeClose(): void {
    if (this.ended.exit && this.ended.stdout && this.ended.stderr) this.emit("close", this.exitCode, this.signalCode);
  }

  /** All three connections have arrived (the host opens them before it replies with a pid). */
  get connected(): boolean {
    return this.attached.size === 3;
  }

  /** Its exit has been reported. */
  get hasExited(): boolean {
    return this.ended.exit;
  }

  /** One of its three connections arrived: stdin is written to, stdout and stderr are read. */
  attach(role: string, socket: Socket, rest: Buffer): void {
    this.attached.add(role);
    socket.on("error", (error) => (role === "stdin" ? this.stdin.emit("error", error) : undefined));
    if (role === "stdin") return void this.stdin.pipe(socket);
    const into = role === "stdout" ? this.stdout : this.stderr;
    if (rest.length > 0) into.write(rest);
    socket.pipe(into);
  }
}

/** One host per command, arguments and environment, started on first use, stopped with this
 *  process: spawned by it, or shared through npm test's broker (host-control.ts). */
class Host {
  private readonly control: HostControl;
  private readonly server: Server;
  private readonly socketPath: string;
  /** the host's own scratch folder (what a Python host learns from its runs), removed with it */
  private readonly scratch: string;
  private readonly runs = new Map<number, ForkedProcess>();
  private readonly listening: Promise<void>;
  private nextId = 1;
  /** what the host wrote on its stdout that was no reply, told when it ends */
  private stray = "";
  /** why the host ended, once it has */
  private gone: string | undefined;

  constructor(spec: HostedRun, index: number) {
    this.socketPath = join(tmpdir(), `lab-host-${process.pid}-${index}.sock`);
    rmSync(this.socketPath, { force: true });
    this.server = createServer((socket) => this.connection(socket));
    this.listening = new Promise((resolve, reject) => {
      this.server.once("error", (error) => reject(new Error(`its socket did not listen: ${error.message}`)));
      this.server.listen(this.socketPath, resolve);
    });
    this.server.unref();
    this.scratch = `${this.socketPath}.d`;
    this.control = openControl(spec, this.scratch, { reply: (line) => this.reply(line), ended: (reason) => this.hostEnded(reason) });
  }

  run(argv: string[]): ForkedProcess {
    const forked = new ForkedProcess();
    void Promise.all([this.listening, this.control.ready]).then(
      ([, base]) => {
        if (this.gone !== undefined) return void forked.emit("error", new Error(`the host could not start the run: the host ${this.gone}`));
        const id = base + this.nextId++;
        this.runs.set(id, forked);
        this.control.send({ id, argv, socket: this.socketPath });
      },
      (error: Error) => forked.emit("error", new Error(`the host could not start the run: ${error.message}`)),
    );
    return forked;
  }

  stop(): void {
    this.control.stop();
    this.server.close();
    rmSync(this.socketPath, { force: true });
    rmSync(this.scratch, { recursive: true, force: true });
  }

  private connection(socket: Socket): void {
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf(0x0a);
      if (end < 0) return;
      socket.off("data", onData);
      const [id, role] = head.toString("utf8", 0, end).split(" ");
      const forked = this.runs.get(Number(id));
      if (!forked || !role) return void socket.destroy();
      socket.pause();
      forked.attach(role, socket, head.subarray(end + 1));
      if (forked.connected && forked.hasExited) this.runs.delete(Number(id));
    };
    socket.on("data", onData);
    socket.on("error", () => undefined);
  }

  /** One line of the host's control output. */
  private reply(line: string): void {
    let reply: { id: number; pid?: number; hosted?: boolean; exit?: number | null; signal?: NodeJS.Signals | null; error?: string };
    try {
      reply = JSON.parse(line) as typeof reply;
    } catch {
      this.stray = `${this.stray}\n[lab: not a control reply on the host's stdout: ${line.slice(0, 200)}]`.slice(-2000);
      return;
    }
    const forked = this.runs.get(reply.id);
    if (!forked) return;
    if (reply.error !== undefined) this.fail(reply.id, reply.error);
    else if (reply.pid !== undefined) forked.started(reply.pid, this.control.pid!, reply.hosted ? (signal) => this.control.send({ id: reply.id, kill: signal }) : undefined);
    else if (!forked.hasExited) {
      // a run that ended before this process read all its connections (killed at once, say)
      // stays known until they are read: they were opened before its pid was sent
      if (forked.connected) this.runs.delete(reply.id);
      forked.exited(reply.exit ?? null, reply.signal ?? null);
    }
  }

  private fail(id: number, reason: string): void {
    const forked = this.runs.get(id);
    this.runs.delete(id);
    forked?.emit("error", new Error(`the host could not start the run: ${reason}`));
  }

  /** The host is gone: runs not started fail; a started run, which cannot be waited for now, is killed. */
  private hostEnded(ended: string): void {
    const reason = (this.gone ??= `${ended}${this.stray}`);
    hosts.forEach((host, key) => host === this && hosts.delete(key));
    for (const [id, forked] of [...this.runs]) {
      if (forked.hasExited) this.runs.delete(id);
      else if (forked.pid === undefined) this.fail(id, `the host ${reason}`);
      else {
        this.runs.delete(id);
        if (!forked.hosted) forked.kill("SIGKILL");
        forked.stderr.write(`\n[lab: the host ${reason}; this run ${forked.hosted ? "ended with it" : "was killed"}]\n`);
        forked.exited(null, "SIGKILL");
      }
    }
  }
}

const hosts = new Map<string, Host>();
let started = 0;

function runInHost(run: HostedRun): ForkedProcess {
  const key = JSON.stringify([run.command, run.args, run.env]);
  let host = hosts.get(key);
  if (!host) hosts.set(key, (host = new Host(run, ++started)));
  return host.run(run.argv);
}

/** A program as the lab starts it: a run in its host when it can stay up (hostedRun), else spawned. */
export function startChild(spec: ChildCommand): ChildLike {
  const hosted = hostedRun(spec);
  return hosted ? runInHost(hosted) : spawn(spec.command, [...spec.args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...spec.env } });
}

/** Stops every host this process started (each by its own handle). */
export function stopHosts(): void {
  for (const host of hosts.values()) host.stop();
  hosts.clear();
}

process.once("exit", stopHosts);
