// Stdio: a real child process on the other end of a pipe. The carrier turns the child's stdin
// and stdout into the SDK's Transport shape (one frame per line, bad lines reported, the child's
// death closing the transport); the lab's one recording transport wraps it like any other.
// Which child runs is the peer's business (lab/peers/): a server peer's child for an in-process
// client, a client driver's child for an in-process server (lab/transports/process.ts).
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { existsSync, readFileSync } from "node:fs";
import type { Side } from "../history/frames.js";
import type { Recorder } from "../history/timeline.js";
import type { ChildCommand, ServerPeer } from "../plan/peer.js";
import { CALL_TIMEOUT_MS } from "../plan/bounds.js";
import { type OpenTransport } from "../plan/session.js";
import { ms, StdioChild, within } from "./child-process.js";
import type { ServerRecord } from "../plan/evidence.js";
import { childEventsFile, releaseScratch } from "../scratch.js";

export { lifecycleProblems, startedChildPids } from "./child-process.js";

/** The Transport shape over one child's stdin and stdout; records nothing itself. */
export class StdioCarrier implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** the child's stdout reached EOF (it may still be running) */
  onstdoutend?: () => void;
  /** when set, each good stdout line goes here instead, as read (a relay forwards it byte for byte) */
  private lineTo?: (line: string, message: JSONRPCMessage) => void;
  private messageTo?: (message: JSONRPCMessage) => void;
  /** lines read before anyone listens (a warm child can write before the relay is wired): kept, in order */
  private early: { line: string; message: JSONRPCMessage }[] = [];
  get onmessage() {
    return this.messageTo;
  }
  set onmessage(to: ((message: JSONRPCMessage) => void) | undefined) {
    this.messageTo = to;
    this.deliverEarly();
  }
  get online() {
    return this.lineTo;
  }
  set online(to: ((line: string, message: JSONRPCMessage) => void) | undefined) {
    this.lineTo = to;
    this.deliverEarly();
  }
  readonly child: StdioChild;
  private open = true;

  /** `local` is the side this process plays; its notes about the child go on that side. */
  constructor(
    command: ChildCommand,
    private readonly local: Side,
    private readonly recorder: Recorder,
    /** a client driver ends its own session by exiting: that is no event worth a note */
    private readonly exitIsTheEnd = false,
  ) {
    this.child = new StdioChild(command, {
      line: (line) => this.line(line),
      badLine: (line, reason) => this.badLine(line, reason),
      closed: (exitCode, signal) => this.childClosed(exitCode, signal),
      stdoutEnded: () => this.onstdoutend?.(),
    });
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    return this.sendLine(serializeMessage(message));
  }

  /** Writes one line (newline included) as it is: what a relay uses, so no byte is re-serialized. */
  async sendLine(line: string): Promise<void> {
    const stdin = this.child.process.stdin;
    if (!this.open || !stdin.writable) throw new Error("transport is closed (child stdin is not writable)");
    if (!stdin.write(line)) {
      // Back-pressure: wait for the pipe to drain, or for the child to go away, within a bound.
      const drained = new Promise<void>((resolve) => {
        stdin.once("drain", resolve);
        stdin.once("close", resolve);
      });
      if (!(await within(drained, CALL_TIMEOUT_MS))) throw new Error(`child stdin did not drain within ${CALL_TIMEOUT_MS} ms`);
    }
  }

  /** One stdout line: a JSON-RPC message goes on, anything else is a stdout error. */
  private line(line: string): void {
    let message: JSONRPCMessage;
    try {
      const parsed = JSONRPCMessageSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`not a JSON-RPC message: ${parsed.error.message}`);
      // The schema's output, as the SDK's ReadBuffer hands it on (shared/stdio.js deserializeMessage).
      message = parsed.data;
    } catch (error) {
      this.child.bad(line, error instanceof Error ? error.message : String(error));
      return;
    }
    if (!this.lineTo && !this.messageTo) return void this.early.push({ line, message });
    if (this.lineTo) this.lineTo(line, message);
    else this.messageTo?.(message);
  }

  private deliverEarly(): void {
    if (!this.lineTo && !this.messageTo) return;
    const waiting = this.early;
    this.early = [];
    for (const { line, message } of waiting) this.lineTo ? this.lineTo(line, message) : this.messageTo?.(message);
  }

  private badLine(line: string, reason: string): void {
    this.recorder.event(this.local, "note", { detail: { stdoutError: line, reason } });
    // The SDK's StdioClientTransport reports an unparsable line through onerror and carries on.
    this.onerror?.(new Error(`stdout line is not one JSON-RPC message (${reason}): ${line}`));
  }

  /** The child is gone while the session still ran: the SDK must fail what is pending now. */
  private childClosed(exitCode: number | null, signal: string | null): void {
    if (!this.open) return;
    if (!this.exitIsTheEnd || exitCode !== 0) this.recorder.event(this.local, "note", { detail: { childExited: { exitCode, signal } } });
    void this.close();
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    // EOF on stdin is the child's cue to exit; the lifecycle close waits for it.
    this.child.endStdin();
    this.onclose?.();
  }
}

/** When the first initialize result reached the lab, counted from the child's spawn. */
export function spawnToInitialized(recorder: Recorder, child: StdioChild): number | undefined {
  const reply = recorder.wire.find((f) => f.label.frameType === "result" && f.label.method === "initialize");
  if (!reply) return undefined;
  return ms(reply.t - recorder.toSessionMs(child.spawnedAtNs));
}

export interface StdioTransportOptions {
  /** fault switches passed to the lab's own server child as `--fault <name>` (tests only) */
  faults?: readonly string[];
  /** replaces the server peer's child command altogether (tests only): no events file then */
  command?: ChildCommand;
  /** replaces EXIT_GRACE_MS, the wait after stdin closes before the kill (tests only) */
  exitGraceMs?: number;
}

/** An in-process client against its server peer's child. */
export function stdioTransport(options: StdioTransportOptions = {}): OpenTransport {
  return async (recorder, sessionOptions) => {
    const server: ServerPeer = sessionOptions.server;
    if (!server.child) throw new Error(`server peer ${server.name} has no stdio child`);
    await server.child.prepare?.();
    const eventsFile = options.command || !server.child.writesEvents ? undefined : childEventsFile();
    const command = options.command ?? server.child.command({ eventsFile, faults: options.faults ?? [] });
    const carrier = new StdioCarrier(command, "client", recorder);
    await carrier.child.spawned();
    return {
      client: carrier,
      close: async () => {
        await carrier.close();
        const evidence = await carrier.child.close(options.exitGraceMs);
        const spawnToInitializedMs = spawnToInitialized(recorder, carrier.child);
        const server = { ...evidence, ...(spawnToInitializedMs !== undefined && { spawnToInitializedMs }) };
        return { kind: "stdio" as const, server, ...(eventsFile && { serverRecord: takeServerRecord(eventsFile) }) };
      },
    };
  };
}

export const openStdioTransport: OpenTransport = stdioTransport();

/** Reads and removes the file a child wrote its own side to. */
export function takeServerRecord(file: string): ServerRecord | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as ServerRecord;
  } catch {
    return null;
  } finally {
    releaseScratch(file);
  }
}
