// Opens a session's transport over a real stdio child: the calculate server runs in its own
// process (started from build/child-server.blob) and the parent holds the client end. The
// client end mirrors the in-memory one: every frame it sends is recorded then noted by its
// receive loop, every stdout line becomes one arrival in that loop. The server's own events are
// invisible from here: the child records them itself and writes them to a file named with
// --events, which the parent reads after the child exited (transport evidence `childSide`).
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { existsSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { CHILD_ARGS, ensureChildBuilt } from "../peers/ts1/child-build.js";
import { ms, StdioChild, within } from "./child-process.js";
import { ReceiveLoop } from "../history/receive-loop.js";
import { childEventsFile, releaseScratch } from "../scratch.js";
import { CALL_TIMEOUT_MS, type OpenTransport } from "../session/session.js";
import type { Recorder, TimelineEvent, WireFrame } from "../history/timeline.js";

export { lifecycleProblems, startedChildPids, type ChildEvidence } from "./child-process.js";
/** Call before the first session so a rebuild does not land inside a session's timeline. */
export { ensureChildBuilt } from "../peers/ts1/child-build.js";

export interface StdioTransportOptions {
  /** fault switches passed to the child as `--fault <name>` (tests only) */
  faults?: readonly string[];
  /** replaces the snapshot arguments (CHILD_ARGS); no build check and no --events then */
  childArgs?: readonly string[];
  /** replaces process.execPath */
  command?: string;
  /** replaces EXIT_GRACE_MS, the wait after stdin closes before the kill (tests only) */
  exitGraceMs?: number;
}

class StdioClientEnd implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private open = true;

  constructor(
    private readonly child: StdioChild,
    readonly loop: ReceiveLoop,
    private readonly recorder: Recorder,
  ) {
    loop.deliver = (message) => this.onmessage?.(message);
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child.process.stdin;
    if (!this.open || !stdin.writable) throw new Error("client transport is closed (child stdin is not writable)");
    const { label } = this.recorder.sent("client", message);
    this.loop.noteSent(message, label);
    if (!stdin.write(serializeMessage(message))) {
      // Back-pressure: wait for the pipe to drain, or for the child to go away, within a bound.
      const drained = new Promise<void>((resolve) => {
        stdin.once("drain", resolve);
        stdin.once("close", resolve);
      });
      if (!(await within(drained, CALL_TIMEOUT_MS))) throw new Error(`child stdin did not drain within ${CALL_TIMEOUT_MS} ms`);
    }
  }

  /** One stdout line: a JSON-RPC message joins the loop, anything else is a stdout error. */
  line(line: string): void {
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
    const { frame, label } = this.recorder.received("server", message);
    if (label.frameType === "result" && label.method === "initialize") {
      this.child.evidence.spawnToInitializedMs ??= ms(performance.now() - this.child.spawnedAt);
    }
    this.loop.arrive(message, label, frame);
  }

  badLine(line: string, reason: string): void {
    this.recorder.event("client", "note", { detail: { stdoutError: line, reason } });
    // The SDK's StdioClientTransport reports an unparsable line through onerror and carries on.
    this.onerror?.(new Error(`stdout line is not one JSON-RPC message (${reason}): ${line}`));
  }

  /** The child is gone while the session still ran: the SDK must fail what is pending now. */
  childClosed(exitCode: number | null, signal: string | null): void {
    if (!this.open) return;
    this.recorder.event("client", "note", { detail: { childExited: { exitCode, signal } } });
    void this.close();
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    this.loop.close();
    // EOF on stdin is the child's cue to exit; the lifecycle close waits for it.
    this.child.endStdin();
    this.onclose?.();
  }
}

export function stdioTransport(options: StdioTransportOptions = {}): OpenTransport {
  return async (recorder, sessionOptions) => {
    if (!options.childArgs) await ensureChildBuilt();
    const eventsFile = childEventsFile();
    const args = [
      ...(options.childArgs ?? CHILD_ARGS),
      ...(options.faults ?? []).flatMap((f) => ["--fault", f]),
      // only the lab's own child knows --events; a replacement command gets nothing extra
      ...(options.childArgs ? [] : ["--events", eventsFile]),
    ];
    let end: StdioClientEnd | undefined;
    const child = new StdioChild(options.command ?? process.execPath, args, {
      line: (line) => end?.line(line),
      badLine: (line, reason) => end?.badLine(line, reason),
      closed: (exitCode, signal) => end?.childClosed(exitCode, signal),
    });
    const loop = new ReceiveLoop({ side: "client", model: sessionOptions.dispatch, recorder, onDeadlock: sessionOptions.onDeadlock });
    end = new StdioClientEnd(child, loop, recorder);
    await child.spawned();
    return {
      client: end,
      close: async () => {
        await end?.close();
        const evidence = await child.close(options.exitGraceMs);
        return { ...evidence, childSide: takeChildSide(eventsFile) };
      },
    };
  };
}

export const openStdioTransport: OpenTransport = stdioTransport();

/** What the child recorded of its own side (null if it wrote nothing: it died or misbehaved). */
export interface ChildSide {
  events: TimelineEvent[];
  wire: WireFrame[];
}

function takeChildSide(file: string): ChildSide | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as ChildSide;
  } catch {
    return null;
  } finally {
    releaseScratch(file);
  }
}
