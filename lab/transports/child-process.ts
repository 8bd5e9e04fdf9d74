// One stdio child and everything the lab keeps about its life: stdout split into lines,
// stderr captured apart, exit code or signal, and a close that never waits without a bound.
import { appendFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { childrenOf, type ChildEvidence, type TransportEvidence } from "../plan/evidence.js";
import type { ChildCommand } from "../plan/peer.js";
import { type ChildLike, ForkedProcess, startChild } from "./forked.js";

/** Grace after stdin is closed before the child is killed, then the wait for the kill. */
export const EXIT_GRACE_MS = 5_000;
export const KILL_WAIT_MS = 2_000;
/** After exit, how long stdout/stderr may take to reach EOF (a grandchild could hold them). */
export const DRAIN_WAIT_MS = 1_000;
export const SPAWN_BOUND_MS = 10_000;
/** A run forked from a warm host "spawns" once the host has imported the program's libraries, which the first run
 *  of a program pays for (lab/peers/python/host.py preload): mcp-use imports langchain, some 4 s of CPU. */
export const HOSTED_SPAWN_BOUND_MS = 60_000;
export const STDERR_KEEP_CHARS = 64 * 1024;
const LINE_KEEP_CHARS = 2_000;


// Every child the lab started, by pid, for the test that checks none survive.
const startedPids: number[] = [];
const live = new Set<ChildLike>();
export const startedChildPids = (): number[] => [...startedPids];

// Safety net: if this process exits with children still running, kill those (by handle only).
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

export interface ChildHandlers {
  line(line: string): void;
  /** a line that cannot be used; `line` is the offending text, shortened if huge */
  badLine(line: string, reason: string): void;
  /** its stdout reached EOF (it may still run) */
  stdoutEnded?(): void;
  /** the child exited and its streams are done (or the drain bound passed) */
  closed(exitCode: number | null, signal: string | null): void;
}

export class StdioChild {
  readonly process: ChildLike;
  readonly spawnedAt = performance.now();
  /** CLOCK_MONOTONIC at spawn, comparable with the Recorder's clock */
  readonly spawnedAtNs = process.hrtime.bigint();
  readonly evidence: ChildEvidence;
  private stdoutBuffer: Buffer | undefined;
  private readonly exited: Promise<void>;
  private readonly streamsClosed: Promise<void>;
  private closing: Promise<ChildEvidence> | undefined;
  private closedReported = false;
  private stdinEndedAt: number | undefined;
  private spawnError: Error | undefined;

  constructor(spec: ChildCommand, private readonly handlers: ChildHandlers) {
    const { command } = spec;
    const args = [...spec.args];
    this.process = startChild(spec);
    const child = this.process;
    this.evidence = {
      command, args, pid: child.pid ?? null, exitCode: null, signal: null,
      forcedKill: false, exitedDuringSession: false, stdoutDrained: false, stderrDrained: false,
      stdoutErrors: [], stdinErrors: [], stderr: "", stderrTruncated: false,
    };
    const known = (pid: number) => {
      this.evidence.pid = pid;
      startedPids.push(pid);
      // Tests set this so children started by other lab processes (CLI runs) can be checked too.
      if (process.env.LAB_CHILD_PID_LOG) appendFileSync(process.env.LAB_CHILD_PID_LOG, `${pid}\n`);
    };
    if (child.pid !== undefined) known(child.pid);
    // a forked run has its pid once the host has forked it; a hosted session has none of its own
    // (the pid is its host's, which outlives it: not one of the children that must be gone)
    else if (child instanceof ForkedProcess)
      child.once("spawn", () => {
        if (child.hosted) {
          this.evidence.pid = child.pid!;
          this.evidence.hostedIn = child.hostPid!;
        } else {
          known(child.pid!);
          this.evidence.forkedFrom = child.hostPid!;
        }
      });
    live.add(child);

    // Listening for 'error' at once: an unhandled one would crash the lab (e.g. ENOENT, EPIPE).
    child.once("error", (error) => (this.spawnError = error));
    child.stdin.on("error", (error) => this.evidence.stdinErrors.push(error.message));
    child.stdout.on("data", (chunk: Buffer) => this.stdout(chunk));
    child.stdout.on("end", () => {
      this.evidence.stdoutDrained = true;
      const rest = this.stdoutBuffer;
      this.stdoutBuffer = undefined;
      if (rest && rest.length > 0) this.bad(rest.toString("utf8"), "partial last line at EOF (no newline)");
      this.handlers.stdoutEnded?.();
    });
    child.stdout.on("error", (error) => this.bad("", `stdout error: ${error.message}`));
    child.stderr.on("data", (chunk: Buffer) => this.stderr(chunk.toString("utf8")));
    child.stderr.on("end", () => (this.evidence.stderrDrained = true));
    child.stderr.on("error", (error) => this.stderr(`\n[lab: stderr error: ${error.message}]\n`));

    this.exited = new Promise((resolve) =>
      child.once("exit", (code, signal) => {
        this.evidence.exitCode = code;
        this.evidence.signal = signal;
        // Exiting before the lab closed stdin means the child died on its own.
        if (this.stdinEndedAt === undefined) this.evidence.exitedDuringSession = true;
        else this.evidence.closeToExitMs = ms(performance.now() - this.stdinEndedAt);
        live.delete(child);
        resolve();
      }),
    );
    this.streamsClosed = new Promise((resolve) => child.once("close", () => resolve()));
    // Report closure once the streams are done, but never later than DRAIN_WAIT_MS after exit.
    void this.exited.then(async () => {
      await within(this.streamsClosed, DRAIN_WAIT_MS);
      this.reportClosed();
    });
  }

  /** Resolves once the OS has started the child; rejects if it could not be spawned. */
  spawned(): Promise<void> {
    const child = this.process;
    if (child.pid !== undefined) return Promise.resolve();
    if (this.spawnError) return Promise.reject(this.spawnError);
    return new Promise((resolve, reject) => {
      const bound = child instanceof ForkedProcess ? HOSTED_SPAWN_BOUND_MS : SPAWN_BOUND_MS;
      const timer = setTimeout(() => reject(new Error(`child did not spawn within ${bound} ms`)), bound);
      child.once("spawn", () => (clearTimeout(timer), resolve()));
      child.once("error", (error) => (clearTimeout(timer), live.delete(child), reject(error)));
    });
  }

  /** Settles when the child has exited (however it ended). */
  waitExit(): Promise<void> {
    return this.exited;
  }

  get running(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  /** Ends stdin (the child's cue to exit); later sends are refused by the transport. */
  endStdin(): void {
    this.stdinEndedAt ??= performance.now();
    if (!this.process.stdin.writableEnded) this.process.stdin.end();
  }

  /** Ends stdin as the other end's own exit would, not as the lab closing the session: a driver
   *  that ended its stdout has ended its session, and a stdio server then exits, ending the
   *  client's input. Does not count as the lab's close (exitedDuringSession, closeToExitMs). */
  endStdinAsPeer(): void {
    if (this.process.stdin.writableEnded) return;
    this.evidence.stdinEndedByPeerExit = true;
    this.process.stdin.end();
  }

  /** Closes stdin, waits the grace (EXIT_GRACE_MS), then SIGKILLs this child and waits KILL_WAIT_MS. */
  close(graceMs = EXIT_GRACE_MS): Promise<ChildEvidence> {
    this.closing ??= (async () => {
      const evidence = this.evidence;
      this.endStdin();
      if (this.running && !(await within(this.exited, graceMs))) {
        evidence.forcedKill = true;
        this.process.kill("SIGKILL");
        await within(this.exited, KILL_WAIT_MS);
      }
      await within(this.streamsClosed, DRAIN_WAIT_MS);
      this.reportClosed();
      return evidence;
    })();
    return this.closing;
  }

  private reportClosed(): void {
    if (this.closedReported || this.running) return;
    this.closedReported = true;
    this.handlers.closed(this.evidence.exitCode, this.evidence.signal);
  }

  private stdout(chunk: Buffer): void {
    // Split on the newline byte, as the SDK's ReadBuffer does (shared/stdio.js); safe in UTF-8.
    let buffer = this.stdoutBuffer ? Buffer.concat([this.stdoutBuffer, chunk]) : chunk;
    for (let index = buffer.indexOf(0x0a); index !== -1; index = buffer.indexOf(0x0a)) {
      const line = buffer.toString("utf8", 0, index).replace(/\r$/, "");
      buffer = buffer.subarray(index + 1);
      this.handlers.line(line);
    }
    this.stdoutBuffer = buffer.length > 0 ? buffer : undefined;
  }

  /** Records an unusable stdout line in the evidence and hands it to the transport. */
  bad(line: string, reason: string): void {
    const kept = line.length > LINE_KEEP_CHARS ? `${line.slice(0, LINE_KEEP_CHARS)}…(${line.length - LINE_KEEP_CHARS} more chars)` : line;
    this.evidence.stdoutErrors.push(kept);
    this.handlers.badLine(kept, reason);
  }

  private stderr(text: string): void {
    const all = this.evidence.stderr + text;
    if (all.length > STDERR_KEEP_CHARS) this.evidence.stderrTruncated = true;
    this.evidence.stderr = all.slice(-STDERR_KEEP_CHARS);
  }
}

/** Waits for `promise` at most `bound` ms; true if it settled in time. */
export async function within(promise: Promise<unknown>, bound: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), bound)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export const ms = (value: number): number => Math.round(value * 1000) / 1000;

/** Lifecycle rules of a normal run, as readable violations (empty when all hold). */
/** Every child's problems in a transport's evidence (a client driver ends its session by exiting). */
export function lifecycleProblems(evidence: TransportEvidence): string[] {
  return childrenOf(evidence).flatMap(({ role, child }) => childProblems(child, { endsItself: role === "driver" }));
}

export function childProblems(e: ChildEvidence, options: { endsItself?: boolean } = {}): string[] {
  const problems: string[] = [];
  if (e.forcedKill) problems.push(`child ${e.pid} did not exit within ${EXIT_GRACE_MS} ms of stdin closing and was killed`);
  if (e.exitCode !== 0) problems.push(`child ${e.pid} ended with ${e.exitCode === null ? `signal ${e.signal ?? "unknown"}` : `exit code ${e.exitCode}`}, not 0`);
  // A client driver ends its own session by exiting; a server child must wait to be closed.
  if (e.exitedDuringSession && !options.endsItself) problems.push(`child ${e.pid} exited before the session closed it`);
  for (const line of e.stdoutErrors) problems.push(`child ${e.pid} wrote a stdout line that is not one JSON-RPC message: ${JSON.stringify(line)}`);
  if (!e.stdoutDrained) problems.push(`child ${e.pid} stdout was not drained to EOF`);
  if (!e.stderrDrained) problems.push(`child ${e.pid} stderr was not drained to EOF`);
  return problems;
}
