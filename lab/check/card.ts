// The report card's checkers: each cell is a function of one real run's evidence (timeline and
// wire), returning data: the value compared with the hand-written card (no milliseconds in it),
// the text shown (which may add a time), and whether the behaviour is safe. Nothing is typed in.
import type { CellValue, Tone } from "./card-cell.js";
import { cancelledRequestId } from "../history/frames.js";
import type { TimelineEvent, WireFrame } from "../history/timeline.js";
import { replyTo, resultsOf } from "./verify.js";
import { lateReport } from "./late-reply.js";
import { CANCEL_CARD_ROWS } from "./card-cancel.js";
import { CONTRACT_CARD_ROWS } from "./card-contract.js";
import { FORM_CARD_ROWS } from "./card-form.js";
import { CANNOT_ARISE, nestedOutcome, peakOf, REQUEST_CARD_ROWS, REQUEST_ROW_SCENARIO, requestsFrom } from "./card-requests.js";

const BASE_ROWS = [
  { id: "protocol", title: "negotiated protocol version" },
  { id: "nested", title: "nested request inside the callback" },
  { id: "nestedError", title: "error when the nested request times out" },
  { id: "cancelNotice", title: "cancellation notice sent on that timeout" },
  { id: "lateReply", title: "the late reply" },
  { id: "recovery", title: "same-session recovery after the failure" },
  { id: "peak", title: "callbacks at once for 8 concurrent requests" },
  { id: "ping", title: "ping while a callback runs" },
] as const;
/** Every row: whether the client answers a form at all first (lab/check/card-form.ts). */
export const CARD_ROWS = [...FORM_CARD_ROWS, ...BASE_ROWS, ...CANCEL_CARD_ROWS, ...CONTRACT_CARD_ROWS, ...REQUEST_CARD_ROWS] as const;
export type RowId = (typeof CARD_ROWS)[number]["id"];

/** The scenario whose run a row's cell comes from (lateAnswer also reads call-cancelled). */
export const ROW_SCENARIO: Record<RowId, string> = {
  formAnswered: "nested",
  protocol: "nested",
  nested: "nested",
  nestedError: "nested",
  cancelNotice: "nested",
  lateReply: "nested",
  recovery: "nested",
  peak: "fan-out",
  ping: "liveness",
  cancelWithdraws: "call-cancelled",
  withdrawAborts: "server-withdraws",
  lateAnswer: "server-withdraws",
  formContract: "form-contract",
  ...REQUEST_ROW_SCENARIO,
};


/** The evidence a cell needs from one run. */
export interface RunEvidence {
  events: TimelineEvent[];
  wire: WireFrame[];
  negotiatedProtocol: string | null;
}

const cell = (value: string | number, tone: Tone, text = String(value)): CellValue => ({ value, text, tone });

export function protocolCell(run: RunEvidence): CellValue {
  return run.negotiatedProtocol ? cell(run.negotiatedProtocol, "n/a") : cell("no initialize result", "unexpected");
}

export function nestedCells(run: RunEvidence): Record<"nested" | "nestedError" | "cancelNotice" | "lateReply" | "recovery", CellValue> {
  const none = cell("-", "n/a");
  const recovery = recoveryCell(run);
  const outcome = nestedOutcome(run, "elicitation/create");
  if (!outcome) return { nested: CANNOT_ARISE, nestedError: none, cancelNotice: none, lateReply: none, recovery };
  const { cell: nested, failed, request, reply } = outcome;
  if (!failed) return { nested, nestedError: none, cancelNotice: none, lateReply: none, recovery };
  const d = failed.detail ?? {};
  const nestedError = cell(`${d.code === null || d.code === undefined ? "no code" : String(d.code)}${d.type ? ` ${String(d.type)}` : ""}`, "n/a");
  const notice = request !== undefined && run.wire.some((f) => f.from === "client" && f.label.method === "notifications/cancelled" && cancelledRequestId(f.message) === request.label.id);
  return { nested, nestedError, cancelNotice: cell(notice ? "yes" : "no", notice ? "safe" : "unsafe"), lateReply: lateReplyCell(run, reply), recovery };
}

function lateReplyCell(run: RunEvidence, reply: WireFrame | undefined): CellValue {
  if (!reply) return cell("no reply came", "n/a");
  const word = run.events.filter((e) => e.side === "client").map(lateReport).find((w) => w !== undefined);
  if (word === "reported to onerror") return cell("dropped, reported to onerror as an unknown id", "safe");
  if (word === "dropped with a debug log") return cell("dropped with a debug log, no error", "n/a");
  if (word === "handed to the message handler") return cell("handed to the message handler as an unknown request ID", "n/a");
  return cell("dropped silently", "n/a");
}

function recoveryCell(run: RunEvidence): CellValue {
  const r = resultsOf(run.events).recovery as { status?: unknown; value?: unknown } | undefined;
  if (r?.status === "calculated" && r.value === 21) return cell("21 in the same session", "safe");
  // The value stays the result as JSON (the hand-written cards name it so); the text says it in words.
  const got = r as { status?: unknown; code?: unknown; computed?: unknown } | undefined;
  const words = got ? `the recovery call ended ${String(got.status)}${got.code !== undefined ? ` (${String(got.code)})` : ""}${got.computed === false ? ", nothing computed" : ""}` : "the recovery call has no result";
  return cell(`recovery: ${JSON.stringify(r ?? null)}`, "unsafe", words);
}

export function peakCell(run: RunEvidence): CellValue {
  return peakOf(run, "elicitation/create");
}

/** Order on the wire: the client's ping reply against its answer to the pending elicitation. */
export function pingCell(run: RunEvidence): CellValue {
  const ping = requestsFrom(run.wire, "server", "ping")[0];
  const elicit = requestsFrom(run.wire, "server", "elicitation/create")[0];
  if (!ping || !elicit) return cell("cannot arise: no server-to-client request", "safe");
  const pong = replyTo(run.wire, ping);
  const answer = replyTo(run.wire, elicit);
  if (!pong || !answer) return cell("a reply is missing", "unexpected");
  return pong.index < answer.index ? cell("answered while the callback runs", "safe") : cell("answered only after the callback answers", "unsafe");
}

