// The one owner of what a JSON-RPC frame is: request, notification, result or error, its id,
// its method, and which request a reply answers. Ids are per direction: a reply from X answers
// a request that the other side sent. The Recorder stores these answers on every wire frame
// when it records it; checkers and renderers read them from there and never re-derive them.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export type Side = "client" | "server";
export type FrameType = "request" | "result" | "error" | "notification";
export type RequestId = number | string;

export const otherSide = (side: Side): Side => (side === "client" ? "server" : "client");

export interface FrameLabel {
  frameType: FrameType;
  id?: RequestId;
  /** the side that issued the request this id belongs to */
  origin?: Side;
  /** a request's or notification's method; for a reply, the method of the request it answers */
  method?: string;
}

/** The loose view of a message every question below is answered from (the only cast). */
interface Loose {
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}
const loose = (message: JSONRPCMessage | unknown): Loose => (message ?? {}) as Loose;

const asId = (value: unknown): RequestId | undefined =>
  typeof value === "number" || typeof value === "string" ? value : undefined;

/** What a frame is on its own, without knowing what was sent before. */
export function classify(message: JSONRPCMessage | unknown): { frameType: FrameType; id?: RequestId; method?: string } {
  const m = loose(message);
  const id = asId(m.id);
  const method = typeof m.method === "string" ? m.method : undefined;
  if (method !== undefined) return id !== undefined ? { frameType: "request", id, method } : { frameType: "notification", method };
  return { frameType: m.error !== undefined ? "error" : "result", ...(id !== undefined && { id }) };
}

export const isReply = (label: { frameType: FrameType }): boolean => label.frameType === "result" || label.frameType === "error";
export const isRequest = (label: { frameType: FrameType }): boolean => label.frameType === "request";

/** A request's params, a result's result, an error's error: typed views for checkers. */
export function paramsOf(message: JSONRPCMessage | unknown): Record<string, unknown> | undefined {
  const p = loose(message).params;
  return p !== null && typeof p === "object" ? (p as Record<string, unknown>) : undefined;
}
export function resultOf(message: JSONRPCMessage | unknown): Record<string, unknown> | undefined {
  const r = loose(message).result;
  return r !== null && typeof r === "object" ? (r as Record<string, unknown>) : undefined;
}
export function errorOf(message: JSONRPCMessage | unknown): { code?: unknown; message?: unknown; data?: unknown } | undefined {
  const e = loose(message).error;
  return e !== null && typeof e === "object" ? (e as { code?: unknown; message?: unknown }) : undefined;
}
/** The request id a notifications/cancelled names. */
export function cancelledRequestId(message: JSONRPCMessage | unknown): RequestId | undefined {
  return asId(paramsOf(message)?.requestId);
}

/**
 * Indexes of the request frames their sender withdrew: it later sent notifications/cancelled
 * naming that id (ids are per direction, so the notice and the request come from the same side).
 * A withdrawn request may rightly have no reply (spec: the receiver SHOULD not respond).
 */
export function withdrawnRequests(frames: readonly { index: number; from: Side; label: FrameLabel; message: unknown }[]): Set<number> {
  const out = new Set<number>();
  frames.forEach((f, i) => {
    if (f.label.frameType !== "notification" || f.label.method !== "notifications/cancelled") return;
    const id = cancelledRequestId(f.message);
    for (let j = i - 1; j >= 0; j--) {
      const r = frames[j]!;
      if (r.from === f.from && r.label.frameType === "request" && r.label.id === id) {
        out.add(r.index);
        break;
      }
    }
  });
  return out;
}

/**
 * Labels frames in the order one session sees them: remembers every request per direction,
 * so a reply gets the method of the request it answers and the index of that request's frame.
 */
export class FrameBook {
  private readonly requests = new Map<string, { method: string; frame: number }>();

  label(from: Side, message: JSONRPCMessage | unknown, frame: number): { label: FrameLabel; replyTo?: number } {
    const c = classify(message);
    if (c.frameType === "request") {
      this.requests.set(`${from}:${String(c.id)}`, { method: c.method!, frame });
      return { label: { frameType: "request", id: c.id!, origin: from, method: c.method! } };
    }
    if (c.frameType === "notification") return { label: { frameType: "notification", method: c.method! } };
    const origin = otherSide(from);
    const request = c.id === undefined ? undefined : this.requests.get(`${origin}:${String(c.id)}`);
    const label: FrameLabel = { frameType: c.frameType, ...(c.id !== undefined && { id: c.id }), origin, ...(request && { method: request.method }) };
    return request ? { label, replyTo: request.frame } : { label };
  }
}
