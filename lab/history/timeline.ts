// The timeline is the one data structure of the lab: transports and callbacks append to it,
// verifiers and renderers only read it.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { FrameBook, type FrameLabel, type FrameType, type Side } from "./frames.js";

export { otherSide, type FrameLabel, type FrameType, type Side } from "./frames.js";

export type EventKind =
  | "frame.sent" // a frame left this side (recorded in send(), before delivery)
  | "frame.arrived" // a frame was put in this side's inbound queue
  | "frame.dispatched" // the receive loop handed the frame to the SDK
  | "loop.held" // serial model: an inbound request now holds the loop
  | "loop.released" // serial model: its response was sent, the queue drains
  | "reply.late" // a response dispatched after its requester gave up (cancelled it)
  | "sdk.error" // the SDK reported an error through onerror
  | "callback.entered"
  | "callback.left"
  | "nested.sent"
  | "nested.ok"
  | "nested.failed"
  | "call.started"
  | "tool.result"
  | "deadlock"
  | "elicitation.complete" // URL mode: the server said an out-of-band interaction finished
  // Cancellation (id/origin/method name the request concerned, not the notification's frame):
  | "cancel.sent" // this side sent notifications/cancelled for its own request
  | "cancel.received" // the loop handed such a notice to the SDK; detail.handler: was that request still running here?
  | "callback.aborted" // the client callback saw its request's abort signal fire (Behaviour.watchAbort)
  | "tool.aborted" // a server tool's signal fired: its tools/call was cancelled
  | "tool.finished" // a tool whose call was cancelled ran on and finished anyway (detail.status)
  | "protocol.negotiated" // the client's connect settled on a protocol version (v2 clients negotiate)
  | "round.input_required" // 2026-07-28: a request came back input_required (detail {call, round, keys})
  | "round.answered" // 2026-07-28: the client retries with inputResponses for those keys
  | "note";

export interface TimelineEvent {
  seq: number;
  /** ms since the session started (monotonic clock) */
  t: number;
  side: Side;
  kind: EventKind;
  /** JSON-RPC id, when the event concerns one; ids are per direction, see `origin` */
  id?: number | string;
  /** the side that issued the request this id belongs to */
  origin?: Side;
  method?: string;
  frameType?: FrameType;
  /** index into the wire, for frame events */
  frame?: number;
  detail?: Record<string, unknown>;
}

export interface WireFrame {
  index: number;
  t: number;
  from: Side;
  to: Side;
  message: JSONRPCMessage;
  /** lab/history/frames.ts's answer, stored when the frame was recorded */
  label: FrameLabel;
  /** for a reply: the index of the request frame it answers */
  replyTo?: number;
}

/** Appends events and wire frames synchronously, in the order they happen. */
export class Recorder {
  readonly events: TimelineEvent[] = [];
  readonly wire: WireFrame[] = [];
  /** CLOCK_MONOTONIC at the session's start: the one clock across processes */
  readonly t0ns = process.hrtime.bigint();
  private readonly book = new FrameBook();
  // frames this process saw leave, by message object: in memory the receiving side is handed
  // the same object, which is on the wire already
  private readonly seen = new WeakMap<object, { frame: number; label: FrameLabel }>();

  now(): number {
    return this.toSessionMs(process.hrtime.bigint());
  }

  /** A CLOCK_MONOTONIC reading (ns, from this or another process) as ms since the session started. */
  toSessionMs(ns: bigint): number {
    return Number((ns - this.t0ns) / 1000n) / 1000;
  }

  event(side: Side, kind: EventKind, fields: Omit<TimelineEvent, "seq" | "t" | "side" | "kind"> = {}, t = this.now()): TimelineEvent {
    const event: TimelineEvent = { seq: this.events.length, t, side, kind, ...fields };
    this.events.push(event);
    return event;
  }

  /** Records a frame leaving `from`: kept whole on the wire, plus a frame.sent event. */
  sent(from: Side, message: JSONRPCMessage): { frame: number; label: FrameLabel } {
    const kept = this.keep(from, message);
    this.seen.set(message, kept);
    this.event(from, "frame.sent", { ...kept.label, frame: kept.frame });
    return kept;
  }

  /**
   * Records a frame reaching this process from `from`. If this process saw it leave (memory),
   * it is on the wire already; otherwise (a child's stdout line) it is kept now, when read.
   */
  received(from: Side, message: JSONRPCMessage): { frame: number; label: FrameLabel } {
    return this.seen.get(message) ?? this.keep(from, message);
  }

  private keep(from: Side, message: JSONRPCMessage): { frame: number; label: FrameLabel } {
    const frame = this.wire.length;
    const { label, replyTo } = this.book.label(from, message, frame);
    // Frames are cloned so later mutation by either SDK cannot rewrite the evidence.
    this.wire.push({ index: frame, t: this.now(), from, to: from === "client" ? "server" : "client", message: structuredClone(message), label, ...(replyTo !== undefined && { replyTo }) });
    return { frame, label };
  }
}

export interface SessionRecord {
  events: TimelineEvent[];
  wire: WireFrame[];
}

/**
 * Adds events another process recorded where they happened, on the same CLOCK_MONOTONIC, to a
 * finished session's timeline: sorted by time (ties keep the lab's own event first), renumbered.
 */
export function mergeForeignEvents(recorder: Recorder, foreign: { t_ns: bigint; side: Side; kind: EventKind; fields: Omit<TimelineEvent, "seq" | "t" | "side" | "kind"> }[]): void {
  const incoming = foreign.map((e) => ({ ...e.fields, seq: -1, t: recorder.toSessionMs(e.t_ns), side: e.side, kind: e.kind }) as TimelineEvent);
  const all = [...recorder.events.map((e, i) => ({ e, key: i })), ...incoming.map((e, i) => ({ e, key: recorder.events.length + i }))];
  all.sort((a, b) => a.e.t - b.e.t || a.key - b.key);
  recorder.events.length = 0;
  for (const { e } of all) recorder.events.push({ ...e, seq: recorder.events.length });
}
