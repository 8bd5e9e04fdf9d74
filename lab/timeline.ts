// The timeline is the one data structure of the lab: transports and callbacks append to it,
// verifiers and renderers only read it.
import { performance } from "node:perf_hooks";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export type Side = "client" | "server";

export type FrameType = "request" | "result" | "error" | "notification";

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
}

export interface FrameLabel {
  frameType: FrameType;
  id?: number | string;
  origin?: Side;
  method?: string;
}

export const otherSide = (side: Side): Side => (side === "client" ? "server" : "client");

/** Appends events and wire frames synchronously, in the order they happen. */
export class Recorder {
  readonly events: TimelineEvent[] = [];
  readonly wire: WireFrame[] = [];
  private readonly t0 = performance.now();
  // method of every request still awaiting a reply, keyed by `${origin}:${id}`
  private readonly methods = new Map<string, string>();

  now(): number {
    return Math.round((performance.now() - this.t0) * 1000) / 1000;
  }

  event(side: Side, kind: EventKind, fields: Omit<TimelineEvent, "seq" | "t" | "side" | "kind"> = {}): TimelineEvent {
    const event: TimelineEvent = { seq: this.events.length, t: this.now(), side, kind, ...fields };
    this.events.push(event);
    return event;
  }

  /** Labels a frame with its type, id and (for replies) the method of the request it answers. */
  private label(from: Side, message: JSONRPCMessage): FrameLabel {
    const m = message as { id?: number | string; method?: string; result?: unknown; error?: unknown };
    if (m.method !== undefined && m.id !== undefined) {
      this.methods.set(`${from}:${m.id}`, m.method);
      return { frameType: "request", id: m.id, origin: from, method: m.method };
    }
    if (m.method !== undefined) return { frameType: "notification", method: m.method };
    const origin = otherSide(from);
    const method = m.id === undefined ? undefined : this.methods.get(`${origin}:${m.id}`);
    return { frameType: m.error !== undefined ? "error" : "result", id: m.id, origin, ...(method && { method }) };
  }

  /** Records a frame leaving `from`: kept whole on the wire, plus a frame.sent event. */
  sent(from: Side, message: JSONRPCMessage): { frame: number; label: FrameLabel } {
    const kept = this.keep(from, message);
    this.event(from, "frame.sent", { ...kept.label, frame: kept.frame });
    return kept;
  }

  /**
   * Records a frame whose sending this process cannot see (a child's stdout line): kept whole
   * on the wire at the moment it was read; the receiving loop records its arrival.
   */
  received(from: Side, message: JSONRPCMessage): { frame: number; label: FrameLabel } {
    return this.keep(from, message);
  }

  private keep(from: Side, message: JSONRPCMessage): { frame: number; label: FrameLabel } {
    const frame = this.wire.length;
    // Frames are cloned so later mutation by either SDK cannot rewrite the evidence.
    this.wire.push({ index: frame, t: this.now(), from, to: otherSide(from), message: structuredClone(message) });
    return { frame, label: this.label(from, message) };
  }
}

export interface SessionRecord {
  events: TimelineEvent[];
  wire: WireFrame[];
}
