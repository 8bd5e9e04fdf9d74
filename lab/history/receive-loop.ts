// One side's inbound queue and the pump that hands frames to the SDK one at a time.
// The loop model decides when the pump may run; everything it does is recorded here.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { cancelledRequestId, isReply, otherSide, type FrameLabel, type RequestId, type Side } from "./frames.js";
import type { Recorder } from "./timeline.js";

/**
 * sdk:    the TypeScript SDK as shipped: every frame is dispatched as soon as it arrives.
 * serial: a MODEL of the MCP Python SDK 1.29.0 receive loop (BaseSession._receive_loop awaits
 *         each inbound request's handler): after an inbound request is dispatched, later frames
 *         wait in the queue until this side sends that request's response or error.
 */
export type LoopModel = "sdk" | "serial";
export const LOOP_MODELS: readonly LoopModel[] = ["sdk", "serial"];

interface Inbound {
  message: JSONRPCMessage;
  label: FrameLabel;
  frame: number;
  arrivedAt: number;
}

interface Holder {
  id: number | string;
  method: string | undefined;
  /** ids of requests this side sent while the holder held the loop */
  sentWhileHeld: Set<number | string>;
}

export type OnDeadlock = "wait" | "break";

export interface ReceiveLoopOptions {
  side: Side;
  loop: LoopModel;
  recorder: Recorder;
  /** What to do when a wait-for cycle is detected (serial only). */
  onDeadlock?: OnDeadlock;
}

export class ReceiveLoop {
  private readonly queue: Inbound[] = [];
  private holder: Holder | undefined;
  private scheduled = false;
  private closed = false;
  // requests this side gave up on: it sent notifications/cancelled for them, or the lab failed
  // them on a detected deadlock (break); a reply that still comes for one is late
  private readonly givenUp = new Set<number | string>();
  // inbound requests handed to the SDK: running until this side sends their reply
  private readonly handled = new Map<RequestId, "running" | "answered">();
  deliver: ((message: JSONRPCMessage) => void) | undefined;

  constructor(private readonly options: ReceiveLoopOptions) {}

  get side(): Side {
    return this.options.side;
  }

  /** A frame reached this side: it joins the queue in arrival order. */
  arrive(message: JSONRPCMessage, label: FrameLabel, frame: number): void {
    const { recorder, side } = this.options;
    const holder = this.holder;
    const event = recorder.event(side, "frame.arrived", {
      ...label,
      frame,
      ...(holder && { detail: { heldBehind: holder.id, heldBehindMethod: holder.method } }),
    });
    this.queue.push({ message, label, frame, arrivedAt: event.t });
    if (holder && isReply(label) && label.id !== undefined && holder.sentWhileHeld.has(label.id)) {
      this.detectedCycle(holder, label);
    }
    this.schedule();
  }

  /** Called by the transport for every frame this side sends, once it is on the wire. */
  noteSent(message: JSONRPCMessage, label: FrameLabel): void {
    const holder = this.holder;
    if (label.frameType === "notification" && label.method === "notifications/cancelled") {
      const requestId = cancelledRequestId(message);
      if (requestId !== undefined) {
        this.givenUp.add(requestId);
        this.options.recorder.event(this.side, "cancel.sent", { id: requestId, origin: this.side, ...this.methodOf(this.side, requestId) });
      }
    }
    if (isReply(label) && label.id !== undefined && this.handled.has(label.id)) this.handled.set(label.id, "answered");
    if (!holder) return;
    if (label.frameType === "request" && label.id !== undefined) holder.sentWhileHeld.add(label.id);
    if (isReply(label) && label.id === holder.id) {
      this.holder = undefined;
      this.options.recorder.event(this.side, "loop.released", {
        id: holder.id,
        origin: label.origin,
        method: holder.method,
        detail: { queued: this.queue.length },
      });
      this.schedule();
    }
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
  }

  private schedule(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    // Delivery never happens in the sender's call stack.
    queueMicrotask(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    const { recorder, side, loop } = this.options;
    while (!this.holder && !this.closed) {
      const next = this.queue.shift();
      if (!next) return;
      const { label, frame } = next;
      const waited = Math.round((recorder.now() - next.arrivedAt) * 1000) / 1000;
      recorder.event(side, "frame.dispatched", { ...label, frame, detail: { waitedMs: waited } });
      if (isReply(label) && label.id !== undefined && this.givenUp.has(label.id)) {
        recorder.event(side, "reply.late", { id: label.id, origin: label.origin, method: label.method, frame });
      }
      if (label.frameType === "request" && label.id !== undefined) this.handled.set(label.id, "running");
      if (label.frameType === "notification" && label.method === "notifications/cancelled") this.cancelReceived(next.message, frame);
      if (loop === "serial" && label.frameType === "request" && label.id !== undefined) {
        this.holder = { id: label.id, method: label.method, sentWhileHeld: new Set() };
        recorder.event(side, "loop.held", { id: label.id, origin: label.origin, method: label.method, frame });
      }
      this.deliver?.(next.message);
    }
  }

  /**
   * A cancellation handed to the SDK, naming a request of the other side: was that request
   * still running here (dispatched, not yet answered), answered already, or never seen? What
   * the SDK then does with it (abort the handler or not) shows in the handler's own events.
   */
  private cancelReceived(message: JSONRPCMessage, notice: number): void {
    const requestId = cancelledRequestId(message);
    if (requestId === undefined) return;
    const origin = otherSide(this.side);
    this.options.recorder.event(this.side, "cancel.received", {
      id: requestId,
      origin,
      ...this.methodOf(origin, requestId),
      detail: { handler: this.handled.get(requestId) ?? "unknown", notice },
    });
  }

  /** The method of the request `from` sent with this id, read from the wire (cancellations are rare). */
  private methodOf(from: Side, id: RequestId): { method?: string } {
    const wire = this.options.recorder.wire;
    for (let i = wire.length - 1; i >= 0; i--) {
      const f = wire[i]!;
      if (f.from === from && f.label.frameType === "request" && f.label.id === id) return { method: f.label.method! };
    }
    return {};
  }

  /**
   * The holder X waits for a reply to Y, and Y's reply waits behind X: a cycle.
   * Recorded the moment Y's reply is queued; with onDeadlock=break the lab fails Y at once.
   */
  private detectedCycle(holder: Holder, reply: FrameLabel): void {
    const { recorder, side, onDeadlock = "wait" } = this.options;
    recorder.event(side, "deadlock", {
      id: reply.id,
      origin: reply.origin,
      method: reply.method,
      detail: {
        holder: { id: holder.id, method: holder.method },
        waiting: { id: reply.id, method: reply.method },
        action: onDeadlock,
      },
    });
    if (onDeadlock !== "break" || reply.id === undefined) return;
    this.givenUp.add(reply.id);
    holder.sentWhileHeld.delete(reply.id);
    const message = `Deadlock detected by the lab: ${holder.method} #${holder.id} holds the receive loop and waits for ${reply.method} #${reply.id}, whose reply is queued behind it`;
    // Synthesised locally and never put on the wire: the real reply stays queued and arrives late.
    this.deliver?.({ jsonrpc: "2.0", id: reply.id, error: { code: DEADLOCK_ERROR_CODE, message } });
  }
}

/** Error code the lab uses when it breaks a detected cycle (JSON-RPC implementation-defined range). */
export const DEADLOCK_ERROR_CODE = -32099;

export { isReply } from "./frames.js";
