// Which client event is its SDK's word that a reply came for a request it no longer waits for, and
// what that word is: each driver records it its own way. One owner for the card's late-reply cell,
// the model-vs-real comparison and the unread band (render/unread.ts).
import type { TimelineEvent } from "../history/timeline.js";

export type LateReport = "reported to onerror" | "dropped with a debug log" | "handed to the message handler";

export function lateReport(e: TimelineEvent): LateReport | undefined {
  // the TS SDKs' onerror ('unknown message ID'), or the lab's own loop's reply.late
  if (e.kind === "reply.late" || (e.kind === "sdk.error" && /unknown message ID/i.test(String(e.detail?.message)))) return "reported to onerror";
  // the Python SDK 2.x dispatcher drops it with a debug log only (jsonrpc_dispatcher.py:678-681); its driver keeps the line
  if (e.kind === "note" && /dropping response/.test(String(e.detail?.sdkLog ?? ""))) return "dropped with a debug log";
  // the Python SDK 1.x loop hands it to the message handler as RuntimeError (shared/session.py:518); the driver notes lateReply
  if (e.kind === "note" && e.detail?.lateReply === true) return "handed to the message handler";
  return undefined;
}
