// What the pictures (SVG, Mermaid) draw, read from the timeline and the wire and nothing else:
// one view per wire frame (when it left, arrived, was dispatched; held? late?) and the moments
// worth a note (timeout, deadlock, callback answers, results...). Both renderers share it, so
// the two pictures of a run tell the same story in the same words.
import { cancelledRequestId, withdrawnRequests } from "../history/frames.js";
import type { FrameLabel, Side, TimelineEvent, WireFrame } from "../history/timeline.js";
import { shortenText } from "./shorten.js";
import { waitEnd, type WaitEnder } from "../check/wait-end.js";
import { unreadFrames, type Unread } from "./unread.js";

/** An SDK error text in a picture's note is shortened to this (shorten.ts). */
const PICTURE_ERROR_CHARS = 60;

/** A gap between two moments longer than this is drawn shorter (SVG) or noted (Mermaid). */
export const LONG_GAP_MS = 40;

export interface FrameView {
  index: number;
  from: Side;
  to: Side;
  label: FrameLabel;
  /** "tools/list #3", "result tools/list #3" (ids are per direction) */
  text: string;
  /** when it left its sender: the sender's frame.sent; if this process could not see the send, when it was read */
  sent: number;
  sentSeen: boolean;
  /** when it entered the receiver's inbound queue, if that side is recorded */
  arrived?: number;
  /** when the receiver's loop handed it to the SDK */
  dispatched?: number;
  /** set when the frame was queued behind a request holding the receiver's loop */
  held?: { behindId: unknown; behindMethod: unknown };
  /** dispatched after its requester gave up (reply.late) */
  late: boolean;
  /** a client in another process: on its pipe while a callback held its loop, read only after (unread.ts) */
  unread?: Unread;
  /** a request its sender withdrew (sent notifications/cancelled for it), or a reply to one */
  withdrawn?: "request" | "answer";
  /** a reply sent after its request's withdrawal was on the wire (known at send time) */
  answersWithdrawn?: boolean;
  /** seq of the first event about this frame: orders frames recorded at the same ms */
  seq: number;
}

export type Tone = "plain" | "call" | "callback" | "ok" | "result" | "loop" | "held" | "timeout" | "failed" | "deadlock" | "late" | "error" | "cancel";

export interface Moment {
  t: number;
  seq: number;
  side: Side;
  kind: "call" | "callback" | "nested" | "timeout" | "deadlock" | "held" | "released-held" | "late" | "loop.held" | "loop.released" | "result" | "sdk.error" | "note" | "cancel" | "aborted";
  tone: Tone;
  /** one or more lines of plain text (renderers escape it) */
  lines: string[];
  /** for held / released-held / late: the frame concerned */
  frame?: number;
}

export function frameViews(events: readonly TimelineEvent[], wire: readonly WireFrame[]): FrameView[] {
  const withdrawn = withdrawnRequests(wire);
  const unread = unreadFrames(events, wire);
  return wire.map((frame) => {
    const about = events.filter((e) => e.frame === frame.index);
    // The label the recorder stored (lab/history/frames.ts); older evidence without one is refused.
    const label: FrameLabel = frame.label;
    const sent = about.find((e) => e.kind === "frame.sent" && e.side === frame.from);
    const arrived = about.find((e) => e.kind === "frame.arrived" && e.side === frame.to);
    const dispatched = about.find((e) => e.kind === "frame.dispatched" && e.side === frame.to);
    // Held: queued behind the request holding the loop (heldBehind), or already queued when a
    // request took the loop before this frame's turn (several frames arriving together).
    const holder =
      arrived?.detail?.heldBehind !== undefined
        ? { behindId: arrived.detail.heldBehind, behindMethod: arrived.detail.heldBehindMethod }
        : heldWhileQueued(events, frame.to, arrived?.seq, dispatched?.seq);
    return {
      index: frame.index,
      from: frame.from,
      to: frame.to,
      label,
      text: rpc(label),
      sent: sent?.t ?? frame.t,
      sentSeen: sent !== undefined,
      ...(arrived && { arrived: arrived.t }),
      ...(dispatched && { dispatched: dispatched.t }),
      ...(holder && { held: holder }),
      late: about.some((e) => e.kind === "reply.late"),
      ...(unread.has(frame.index) && { unread: unread.get(frame.index)! }),
      ...(withdrawn.has(frame.index) && { withdrawn: "request" as const }),
      ...(frame.replyTo !== undefined && withdrawn.has(frame.replyTo) && { withdrawn: "answer" as const, answersWithdrawn: cancelledBefore(wire, frame.replyTo, frame.index) }),
      seq: about[0]?.seq ?? Number.MAX_SAFE_INTEGER,
    };
  });
}

/** Was notifications/cancelled for the request at `request` on the wire before the frame at `before`? */
function cancelledBefore(wire: readonly WireFrame[], request: number, before: number): boolean {
  const r = wire[request];
  return r !== undefined && wire.some((f) => f.index > request && f.index < before && f.from === r.from && f.label.method === "notifications/cancelled" && cancelledRequestId(f.message) === r.label.id);
}

const HANDLER: Record<string, string> = {
  running: "its handler is still running here",
  answered: "already answered: too late to stop it",
  unknown: "no such request here",
};

function heldWhileQueued(
  events: readonly TimelineEvent[],
  side: Side,
  arrivedSeq: number | undefined,
  dispatchedSeq: number | undefined,
): FrameView["held"] | undefined {
  if (arrivedSeq === undefined) return undefined;
  const end = dispatchedSeq ?? Number.MAX_SAFE_INTEGER;
  const held = events.find((e) => e.kind === "loop.held" && e.side === side && e.seq > arrivedSeq && e.seq < end);
  return held && { behindId: held.id, behindMethod: held.method };
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

/** A timeout note's words for what ended the wait. */
const ENDED_BY: Record<WaitEnder, string> = { sdk: "the SDK's request limit", backstop: "the lab's backstop, no SDK limit", callback: "the callback's own limit", session: "the lab's bound, which ended the session: no limit could" };

/** "MCP error -32001: Request timed out" -> "Request timed out" */
const bareMessage = (message: unknown) => String(message ?? "").replace(/^MCP error -?\d+: /, "");

function resultText(detail: Record<string, unknown>): string {
  const call = String(detail.call);
  if ("error" in detail) {
    const error = detail.error as { code?: unknown; message?: unknown } | null;
    return `${call} = error ${String(error?.code)} ${bareMessage(error?.message)}`;
  }
  const r = detail.result as { status?: unknown; value?: unknown } | null;
  const value = r && r.value !== null && r.value !== undefined ? ` (${String(r.value)})` : "";
  return `${call} = ${String(r?.status)}${value}`;
}

/** The moments worth a note, in timeline order. Frame events are drawn as arrows, not here. */
export function moments(events: readonly TimelineEvent[], frames: readonly FrameView[]): Moment[] {
  const out: Moment[] = [];
  const at = (e: TimelineEvent, kind: Moment["kind"], tone: Tone, lines: string[], frame?: number) =>
    out.push({ t: e.t, seq: e.seq, side: e.side, kind, tone, lines, ...(frame !== undefined && { frame }) });
  let nestedSent: TimelineEvent | undefined;
  // the event that says a client in another process read a frame it left unread (unread.ts)
  const readOf = new Map(frames.filter((f) => f.unread).map((f) => [f.unread!.readSeq, f]));
  for (const e of events) {
    const d = e.detail ?? {};
    const frame = e.frame === undefined ? undefined : frames[e.frame];
    const wasUnread = readOf.get(e.seq);
    if (wasUnread) {
      const u = wasUnread.unread!;
      const lines = [`${wasUnread.text} read after ${ms(u.read - u.onPipe)} unread on the client's pipe`, `behind ${String(u.behindMethod)} #${String(u.behindId)} (${u.readBy})`];
      if (u.late) lines.push("LATE: its requester already gave up");
      at(e, "released-held", u.late ? "late" : "held", lines, wasUnread.index);
      continue;
    }
    switch (e.kind) {
      case "call.started":
        at(e, "call", "call", [`call ${String(d.call)}`]);
        break;
      case "callback.entered":
        at(e, "callback", "callback", [`callback #${String(d.n)} (${String(d.call)}) entered`]);
        break;
      case "callback.left":
        at(e, "callback", "callback", [
          d.action !== undefined ? `callback #${String(d.n)} answers ${String(d.action)}` : `callback #${String(d.n)} threw ${String(d.error)}`,
        ]);
        break;
      case "nested.sent":
        nestedSent = e;
        at(e, "nested", "callback", [`callback awaits nested ${String(e.method)}`]);
        break;
      case "nested.ok":
        at(e, "nested", "ok", [`nested ${String(e.method)} returned`]);
        break;
      case "nested.failed": {
        const waited = nestedSent === undefined ? "" : ` after ${ms(e.t - nestedSent.t)}`;
        // which limit ended the wait, from the error (lab/check/wait-end.ts), never from the plan
        const end = waitEnd(e, nestedSent, []);
        at(e, end ? "timeout" : "nested", end ? "timeout" : "failed", [
          `${end ? `TIMEOUT (${ENDED_BY[end.by]}): ` : ""}nested ${String(e.method)} failed ${String(d.code)}`,
          `${bareMessage(d.message)}${waited}`,
        ]);
        break;
      }
      case "deadlock": {
        const holder = (d.holder ?? {}) as { id?: unknown; method?: unknown };
        const waiting = (d.waiting ?? {}) as { id?: unknown; method?: unknown };
        const h = `${String(holder.method)} #${String(holder.id)}`;
        const w = `${String(waiting.method)} #${String(waiting.id)}`;
        at(e, "deadlock", "deadlock", [
          `DEADLOCK: a wait-for cycle on the ${e.side}`,
          `${h} waits for ${w}`,
          `${w}'s reply waits behind ${h}`,
          d.action === "break" ? "the lab breaks it now (--on-deadlock break)" : "only a timeout can break it",
        ]);
        break;
      }
      case "frame.arrived":
        if (frame?.held) {
          at(e, "held", "held", [`${frame.text} HELD in ${e.side} queue`, `behind ${String(frame.held.behindMethod)} #${String(frame.held.behindId)}`], frame.index);
        }
        break;
      case "frame.dispatched":
        if (frame?.held) {
          const lines = [`${frame.text} dispatched after ${ms(Number(d.waitedMs ?? 0))} in queue`];
          if (frame.late) lines.push("LATE: its requester already gave up");
          at(e, "released-held", frame.late ? "late" : "held", lines, frame.index);
        }
        break;
      case "reply.late":
        // A held reply's lateness is told with its dispatch; a reply late for another reason stands alone.
        if (!frame?.held) at(e, "late", "late", [`LATE reply ${rpc(e)}: its requester gave up`], e.frame);
        break;
      case "loop.held":
        at(e, "loop.held", "loop", [`${e.side} loop HELD by ${rpc({ ...e, frameType: "request" })}`]);
        break;
      case "loop.released":
        at(e, "loop.released", "loop", [`${e.side} loop released (${String(d.queued)} queued)`]);
        break;
      case "tool.result":
        at(e, "result", "result", [resultText(d)]);
        break;
      case "sdk.error":
        // A picture's note stays short: an echoed frame is elided whole ({…}), never cut mid-token.
        at(e, "sdk.error", "error", [`${e.side} SDK onerror: ${shortenText(String(d.message), PICTURE_ERROR_CHARS)}`]);
        break;
      case "protocol.negotiated":
        at(e, "note", "plain", [`negotiated ${String(d.protocolVersion)} (${String(d.negotiation)})`]);
        break;
      case "round.input_required":
        at(e, "note", "callback", [`round ${String(d.round)} of ${String(d.call)}: input required (${(d.keys as string[] | undefined)?.join(", ") ?? ""}), no server request`]);
        break;
      case "round.answered":
        at(e, "note", "callback", [`round ${String(d.round)} answered: tools/call again with inputResponses`]);
        break;
      case "note":
        at(e, "note", "plain", [shortenText(`note: ${JSON.stringify(d)}`, 90)]);
        break;
      case "cancel.sent":
        at(e, "cancel", "cancel", [`${e.side} cancels its ${rpc({ ...e, frameType: "request" })}`]);
        break;
      case "cancel.received":
        at(e, "cancel", "cancel", [`cancel of ${rpc({ ...e, frameType: "request" })} reaches the SDK`, HANDLER[String(d.handler)] ?? String(d.handler)]);
        break;
      case "callback.aborted":
        at(e, "aborted", "failed", [`FORM WITHDRAWN: callback #${String(d.n)} (${String(d.call)}) sees its abort`]);
        break;
      case "tool.aborted":
        at(e, "aborted", "cancel", [`tool ${String(d.tool)}: its tools/call #${String(e.id)} was cancelled`]);
        break;
      case "tool.finished":
        at(e, "late", "late", [`tool ${String(d.tool)} finished anyway (${String(d.status)})`, "for a call nobody waits for"]);
        break;
      default:
        break;
    }
  }
  return out;
}

/** Spans of the serial model: a side's loop held by an inbound request, from loop.held to loop.released. */
export function loopSpans(events: readonly TimelineEvent[]): { side: Side; from: number; to: number | undefined; text: string }[] {
  const spans: { side: Side; from: number; to: number | undefined; text: string }[] = [];
  for (const e of events) {
    if (e.kind === "loop.held") spans.push({ side: e.side, from: e.t, to: undefined, text: rpc({ ...e, frameType: "request" }) });
    if (e.kind === "loop.released") {
      const open = spans.find((s) => s.side === e.side && s.to === undefined);
      if (open) open.to = e.t;
    }
  }
  return spans;
}

/** Spans of each callback, from callback.entered to callback.left (matched by n). */
export function callbackSpans(events: readonly TimelineEvent[]): { n: unknown; from: number; to: number | undefined }[] {
  const spans: { n: unknown; from: number; to: number | undefined }[] = [];
  for (const e of events) {
    if (e.kind === "callback.entered") spans.push({ n: e.detail?.n, from: e.t, to: undefined });
    if (e.kind === "callback.left") {
      const open = spans.find((s) => s.n === e.detail?.n && s.to === undefined);
      if (open) open.to = e.t;
    }
  }
  return spans;
}

/** "tools/list #3", "result tools/list #3": how every renderer names a frame. */
export function rpc(e: Pick<TimelineEvent, "id" | "frameType" | "method">): string {
  const id = e.id === undefined ? "" : ` #${String(e.id)}`;
  const type = e.frameType === "request" || e.frameType === "notification" || e.frameType === undefined ? "" : `${e.frameType} `;
  return `${type}${e.method ?? "?"}${id}`;
}
