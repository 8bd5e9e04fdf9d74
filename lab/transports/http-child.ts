// A server peer's HTTP child: the stdio child's lifecycle (lab/transports/child-process.ts: close
// stdin, grace, kill by handle, exit code kept) with one handshake on stdout. Its first line must
// be exactly {"port":N}; any later stdout line is a stdout error, as for a stdio child.
import type { Recorder } from "../history/timeline.js";
import type { ChildCommand } from "../plan/peer.js";
import { withBound } from "../plan/bounds.js";
import { SPAWN_BOUND_MS, StdioChild } from "./child-process.js";

/** How long a child may take from spawn to its port line. */
export const HANDSHAKE_BOUND_MS = SPAWN_BOUND_MS;

export class HttpChild {
  readonly child: StdioChild;
  /** set once the child said where it listens */
  listeningPort: number | undefined;
  /** the child exited (at any time): the carrier fails what is pending */
  onGone?: (exitCode: number | null, signal: string | null) => void;
  private readonly handshake: Promise<number>;
  private said!: (port: number) => void;
  private failed!: (error: Error) => void;
  private lines = 0;

  constructor(command: ChildCommand, private readonly recorder: Recorder) {
    this.handshake = new Promise<number>((resolve, reject) => ((this.said = resolve), (this.failed = reject)));
    this.handshake.catch(() => undefined); // awaited by `port`; a child that is never used may fail unheard
    this.child = new StdioChild(command, {
      line: (line) => this.line(line),
      badLine: (line, reason) => this.recorder.event("client", "note", { detail: { stdoutError: line, reason } }),
      closed: (exitCode, signal) => {
        const stderr = this.child.evidence.stderr.trim().split("\n").at(-1) ?? "";
        this.failed(new Error(`the HTTP child exited (${exitCode === null ? `signal ${signal}` : `exit code ${exitCode}`}) before it said its port${stderr ? `: ${stderr}` : ""}`));
        this.onGone?.(exitCode, signal);
      },
    });
  }

  /** The port the child listens on, once it has said so (bounded). */
  get port(): Promise<number> {
    return withBound(this.handshake, HANDSHAKE_BOUND_MS, "the HTTP child's port line");
  }

  private line(line: string): void {
    if (this.lines++ > 0) return this.child.bad(line, "an HTTP child writes nothing on stdout after its port line");
    let port: unknown;
    try {
      port = (JSON.parse(line) as { port?: unknown }).port;
    } catch {
      port = undefined;
    }
    if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65_535) {
      this.child.bad(line, 'the first stdout line of an HTTP child must be {"port":N}');
      this.failed(new Error(`the HTTP child's first stdout line is not {"port":N}: ${JSON.stringify(line)}`));
      return;
    }
    this.listeningPort = port;
    this.said(port);
  }
}
