// Report-card rows for cancellation across the callback (issue #18). Like lab/check/card.ts,
// each cell is a function of real runs' evidence and returns data: a value compared with the
// hand-written card (no milliseconds in it), the text shown, and a tone. They read the wire and
// the client's callback events, which every client driver records; the lab's own loop events
// (cancel.received) and the server's events, where present, only sharpen the words.
import { cancelledRequestId, isRequest, withdrawnRequests } from "../history/frames.js";
import type { TimelineEvent, WireFrame } from "../history/timeline.js";
import { type CellValue, type Tone } from "./card-cell.js";
import { replyTo } from "./verify.js";

export const CANCEL_CARD_SCENARIOS = ["call-cancelled", "server-withdraws"] as const;

export const CANCEL_CARD_ROWS = [
  { id: "cancelWithdraws", title: "a cancelled call withdraws its form" },
  { id: "withdrawAborts", title: "a withdrawn form aborts the callback (first request / later request)" },
  { id: "lateAnswer", title: "late answer handling" },
] as const;
export type CancelRowId = (typeof CANCEL_CARD_ROWS)[number]["id"];

/** One run's evidence. `serverEvents`: the server's own record when it ran in another process
 *  (stdio serverRecord; null when it wrote none); absent: the server's events are in `events`. */
export interface CancelRunEvidence {
  events: TimelineEvent[];
  wire: WireFrame[];
  serverEvents?: TimelineEvent[] | null;
}

const cell = (value: string, tone: Tone): CellValue => ({ value, text: value, tone });
/** 2026-07-28: the server sends no request, so there is no form to withdraw (as the other rows say). */
const CANNOT_ARISE = cell("cannot arise: no server-to-client request", "safe");
const noForms = (...runs: CancelRunEvidence[]) => runs.every((run) => formIn(run.wire) === undefined);

/** Each call of the session (by its call.started label, in order), with the frames inside it. */
function calls(run: CancelRunEvidence): Map<string, { call: WireFrame; frames: WireFrame[] }> {
  const labels = run.events.filter((e) => e.side === "client" && e.kind === "call.started").map((e) => String(e.detail?.call));
  const requests = run.wire.filter((f) => f.from === "client" && isRequest(f.label) && f.label.method === "tools/call");
  const out = new Map<string, { call: WireFrame; frames: WireFrame[] }>();
  requests.forEach((call, i) => {
    const end = requests[i + 1]?.index ?? Infinity;
    out.set(labels[i] ?? `call ${i + 1}`, { call, frames: run.wire.filter((f) => f.index > call.index && f.index < end) });
  });
  return out;
}

const formIn = (frames: WireFrame[]) => frames.find((f) => f.from === "server" && isRequest(f.label) && f.label.method === "elicitation/create");
const cancelled = (run: CancelRunEvidence, from: "client" | "server", request: WireFrame) =>
  run.wire.some((f) => f.from === from && f.index > request.index && f.label.method === "notifications/cancelled" && cancelledRequestId(f.message) === request.label.id);
const serverSide = (run: CancelRunEvidence): TimelineEvent[] | undefined =>
  run.serverEvents === null ? undefined : (run.serverEvents ?? run.events).filter((e) => e.side === "server");

/** call-cancelled: after the client cancels each call, does the server withdraw that call's form?
 *  Named by tool: `calculate` passes nothing to its form, `calculate_linked` links it to the call. */
export function cancelWithdrawsCell(run: CancelRunEvidence): CellValue {
  if (noForms(run)) return CANNOT_ARISE;
  const byCall = calls(run);
  const parts: string[] = [];
  let open = false;
  for (const [label, text] of [["unlinked", "calculate"], ["linked", "calculate_linked"]] as const) {
    const call = byCall.get(label);
    const form = call && formIn(call.frames);
    if (!call || !form) return cell(`no form in call ${label}`, "unexpected");
    // Python SDK 1.29.0: a caller that gives up sends nothing (shared/session.py:310-314); the server is not told.
    if (!cancelled(run, "client", call.call)) return cell("not told: the client gives up without notifications/cancelled", "unsafe");
    const withdrawn = cancelled(run, "server", form);
    open ||= !withdrawn;
    parts.push(`${text}: ${withdrawn ? "withdrawn" : "left open"}`);
  }
  return cell(parts.join(" · "), open ? "unsafe" : "safe");
}

/** server-withdraws: did each withdrawn form's callback see its abort? */
export function withdrawAbortsCell(run: CancelRunEvidence): CellValue {
  if (noForms(run)) return CANNOT_ARISE;
  const byCall = calls(run);
  const parts: string[] = [];
  let missed = false;
  for (const [label, text] of [["first-request", "first request"], ["later-request", "later request"]] as const) {
    const form = byCall.get(label) && formIn(byCall.get(label)!.frames);
    if (!form) return cell(`no form in call ${label}`, "unexpected");
    // Python SDK 1.29.0 server: a limit that expires cancels send_request, which writes nothing (shared/session.py:310-314).
    if (!cancelled(run, "server", form)) return cell("not withdrawn: the server gives up without notifications/cancelled", "unsafe");
    const about = (kind: string) => run.events.find((e) => e.side === "client" && e.kind === kind && e.id === form.label.id && e.origin === "server");
    const aborted = about("callback.aborted") !== undefined;
    missed ||= !aborted;
    // The lab's loop, where it runs at the client, says why an abort did not come.
    const handler = about("cancel.received")?.detail?.handler;
    const why = aborted ? "" : handler === "running" ? " (ignored while it ran)" : handler === "answered" ? " (read after its answer)" : "";
    parts.push(`${text}: ${aborted ? "aborted" : "not aborted"}${why}`);
  }
  return cell(parts.join(" · "), missed ? "unsafe" : "safe");
}

/** What becomes of an answer that comes after its form was withdrawn, or after its call was cancelled. */
export function lateAnswerCell(withdraws: CancelRunEvidence, callCancelled: CancelRunEvidence): CellValue {
  if (noForms(withdraws, callCancelled)) return CANNOT_ARISE;
  const server = serverSide(withdraws);
  const withdrawn = [...withdrawnRequests(withdraws.wire)].map((i) => withdraws.wire[i]!).filter((f) => f.from === "server" && f.label.method === "elicitation/create");
  const answered = withdrawn.filter((f) => replyTo(withdraws.wire, f) !== undefined);
  let afterWithdrawal: string;
  let tone: Tone = "safe";
  if (withdrawn.length === 0) [afterWithdrawal, tone] = ["no withdrawal was sent, the answer goes to a server that gave up", "unsafe"];
  else if (answered.length === 0) afterWithdrawal = "no answer is sent";
  else if (!server) afterWithdrawal = "answered; the server's handling not recorded";
  else if (server.some((e) => e.kind === "sdk.error" && /unknown message ID/i.test(String(e.detail?.message)))) afterWithdrawal = "dropped, reported to onerror as an unknown id";
  else if (server.some((e) => e.kind === "reply.late")) afterWithdrawal = "dropped silently";
  else [afterWithdrawal, tone] = ["answered, and the server used it", "unsafe"];

  // call-cancelled, unlinked: the form was never withdrawn, so its answer reaches a tool whose call is gone.
  const unlinked = calls(callCancelled).get("unlinked");
  const form = unlinked && formIn(unlinked.frames);
  const answer = form && replyTo(callCancelled.wire, form);
  const finished = serverSide(callCancelled)?.find((e) => e.kind === "tool.finished" && e.id === unlinked?.call.label.id);
  let afterCancel: string;
  if (!unlinked || !answer) afterCancel = "no answer is sent";
  else if (finished) {
    afterCancel = `the tool runs on (${String(finished.detail?.status)})${replyTo(callCancelled.wire, unlinked.call) ? "" : ", no result sent"}`;
    tone = "unsafe";
  } else {
    const reply = replyTo(callCancelled.wire, unlinked.call);
    // Python SDK 1.29.0 server: RequestResponder.cancel answers the cancelled request with an error (shared/session.py:138-151).
    afterCancel = !reply ? "answered; no result sent" : reply.label.frameType === "error" ? "the cancelled call gets an error reply" : "the call still gets a result";
  }
  return cell(`after a withdrawal: ${afterWithdrawal} · after a cancelled call: ${afterCancel}`, tone);
}

/** The three cells from the two scenarios' runs (by scenario name). */
export function cancelCells(runs: Record<(typeof CANCEL_CARD_SCENARIOS)[number], CancelRunEvidence>): Record<CancelRowId, CellValue> {
  return {
    cancelWithdraws: cancelWithdrawsCell(runs["call-cancelled"]),
    withdrawAborts: withdrawAbortsCell(runs["server-withdraws"]),
    lateAnswer: lateAnswerCell(runs["server-withdraws"], runs["call-cancelled"]),
  };
}

/** The three cells for a client whose era the two scenarios refuse (notForEras: 2026-07-28). */
export function cancelCellsNotRun(): Record<CancelRowId, CellValue> {
  return { cancelWithdraws: CANNOT_ARISE, withdrawAborts: CANNOT_ARISE, lateAnswer: CANNOT_ARISE };
}
