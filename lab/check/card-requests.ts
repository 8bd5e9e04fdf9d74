// The report card's rows for every request a server sends besides a form (issue #29): a nested
// request inside a sampling or a roots callback, and how many sampling callbacks run at once. Each
// is the same order-based reading as the elicitation rows (lab/check/card.ts), for its own method;
// a client that answers the request with an error and no callback (the AI SDK's -32601) says so.
import type { CellValue } from "./card-cell.js";
import { isRequest } from "../history/frames.js";
import type { TimelineEvent, WireFrame } from "../history/timeline.js";
import { peakCallbacks, replyTo } from "./verify.js";
import { DEADLOCK_UNTIL, HANGS, waitEnd, type WaitEnd } from "./wait-end.js";

export const REQUEST_CARD_ROWS = [
  { id: "samplingNested", title: "nested request inside a sampling callback" },
  { id: "samplingPeak", title: "sampling requests at once" },
  { id: "rootsNested", title: "nested request inside a roots callback" },
] as const;
type RequestRowId = (typeof REQUEST_CARD_ROWS)[number]["id"];

/** The scenario each row's cell comes from. */
export const REQUEST_ROW_SCENARIO: Record<RequestRowId, string> = {
  samplingNested: "sampling-nested",
  samplingPeak: "sampling-fan-out",
  rootsNested: "roots-nested",
};
export const REQUEST_CARD_SCENARIOS = ["sampling-nested", "sampling-fan-out", "roots-nested"] as const;

interface Run {
  events: TimelineEvent[];
  wire: WireFrame[];
}

const cell = (value: string, tone: CellValue["tone"], text = value): CellValue => ({ value, text, tone });
export const CANNOT_ARISE = cell("cannot arise: no server-to-client request", "safe");

export const requestsFrom = (wire: WireFrame[], side: "client" | "server", method: string) =>
  wire.filter((f) => f.from === side && isRequest(f.label) && f.label.method === method);

/**
 * The client answered the server's first `method` request with no callback entered: refused with an
 * error (its code: the AI SDK's -32601), or answered by its SDK from data it was given (the Java
 * SDK's roots are a list, McpAsyncClient.java:564-572), so no callback can nest.
 */
function noCallbackCell(run: Run, asked: WireFrame): CellValue | undefined {
  if (run.events.some((e) => e.kind === "callback.entered")) return undefined;
  const reply = replyTo(run.wire, asked)?.message as { result?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
  if (reply?.error) return cell(`refused (${String(reply.error.code)}), no callback`, "n/a", `refused (${String(reply.error.code)} ${String(reply.error.message)}), no callback`);
  return reply?.result === undefined ? undefined : cell("answered by the SDK, no callback", "n/a");
}

export interface NestedOutcome {
  /** the nested row's cell */
  cell: CellValue;
  sent?: TimelineEvent;
  failed?: TimelineEvent;
  /** the nested request on the wire, and its reply */
  request?: WireFrame;
  reply?: WireFrame;
  /** a deadlock: the reply was on the wire before the callback gave up */
  deadlock?: boolean;
  /** what ended the failed request's wait, read from its error (lab/check/wait-end.ts) */
  waitEnd?: WaitEnd;
}

/**
 * What happened to the nested request a callback for `method` sent; undefined when the server sent
 * no `method` request. Deadlock is read from order alone: the reply was on the wire before the
 * callback gave up on it, so only the client's loop kept it from the callback.
 */
export function nestedOutcome(run: Run, method: string): NestedOutcome | undefined {
  const asked = requestsFrom(run.wire, "server", method)[0];
  if (!asked) return method === "elicitation/create" ? embeddedHang(run) : undefined;
  const noCallback = noCallbackCell(run, asked);
  if (noCallback) return { cell: noCallback };
  const ok = run.events.find((e) => e.kind === "nested.ok");
  const failed = run.events.find((e) => e.kind === "nested.failed");
  const sent = run.events.find((e) => e.kind === "nested.sent");
  const request = run.wire.find((f) => f.index > asked.index && f.from === "client" && isRequest(f.label) && f.label.method === sent?.method);
  const reply = request && replyTo(run.wire, request);
  if (ok && sent) return { cell: cell("completes", "safe", `completes in ${(ok.t - sent.t).toFixed(0)} ms`), sent, request, reply };
  if (!failed || !sent) return { cell: cell("no nested request seen", "unexpected") };
  const end = waitEnd(failed, sent, run.wire, request);
  if (end?.by === "session") return { cell: hangCell(end, request), sent, failed, request, reply, waitEnd: end };
  const deadlock = reply !== undefined && reply.t < failed.t;
  const nested = deadlock ? deadlockCell(end) : cell("fails without a reply on the wire", "unexpected");
  return { cell: nested, sent, failed, request, reply, deadlock, ...(end && { waitEnd: end }) };
}

/** In 2026-07-28 a form is an input request inside the tools/call (no server-to-client request), yet its callback may
 *  still block the loop its nested request needs: the lab's bound ending the session says so (strands-sync). */
function embeddedHang(run: Run): NestedOutcome | undefined {
  const failed = run.events.find((e) => e.kind === "nested.failed");
  const end = failed && waitEnd(failed, run.events.find((e) => e.kind === "nested.sent"), run.wire);
  return end?.by === "session" ? { cell: hangCell(end, undefined), failed, waitEnd: end } : undefined;
}

/** Nothing ended the wait but the lab's bound, ending the session: the value is fixed, the text says whether the request left. */
function hangCell(end: WaitEnd, request: WireFrame | undefined): CellValue {
  const limit = end.configuredMs === undefined ? "" : `, limit ${end.configuredMs} ms`;
  return cell(HANGS, "unsafe", `${HANGS}: the lab's bound ended the session (${end.error}${limit}); the request ${request ? "was sent" : "never reached the wire"}`);
}

/** The value names what ended the wait (a fixed word); the text adds the error, the configured length and the measured wait. */
function deadlockCell(end: WaitEnd | undefined): CellValue {
  const value = DEADLOCK_UNTIL[end === undefined || end.by === "session" ? "unknown" : end.by];
  const configured = end?.configuredMs === undefined ? "" : `, limit ${end.configuredMs} ms`;
  const waited = end?.waitedMs === undefined ? "" : `; waited ${end.waitedMs.toFixed(0)} ms`;
  return cell(value, "unsafe", end ? `${value} (${end.error}${configured}${waited})` : value);
}

/** The methods a callback can nest a request in, the form first (the card's rows). */
export const NESTING_METHODS = ["elicitation/create", "sampling/createMessage", "roots/list"] as const;

/** The nested request that failed, in whichever callback it was sent (a scenario nests in one). */
export const failedNested = (run: Run): NestedOutcome | undefined => NESTING_METHODS.map((m) => nestedOutcome(run, m)).find((o) => o?.failed);

/** How many callbacks for `method` ran at once (categorical: beyond one, the count can depend on load). */
export function peakOf(run: Run, method: string): CellValue {
  const asked = requestsFrom(run.wire, "server", method)[0];
  if (!asked) return CANNOT_ARISE;
  const noCallback = noCallbackCell(run, asked);
  if (noCallback) return noCallback;
  const peak = peakCallbacks(run.events);
  return peak > 1 ? cell("several at once", "safe", `${peak} at once`) : cell("one at a time", "unsafe");
}

/** The three rows from their three runs (absent when the run was not made: the client's era lacks it). */
export function requestCells(runs: Partial<Record<(typeof REQUEST_CARD_SCENARIOS)[number], Run>>): Partial<Record<RequestRowId, CellValue>> {
  const nested = (run: Run | undefined, method: string) => (run ? (nestedOutcome(run, method)?.cell ?? CANNOT_ARISE) : undefined);
  const out: Partial<Record<RequestRowId, CellValue>> = {};
  const samplingNested = nested(runs["sampling-nested"], "sampling/createMessage");
  const rootsNested = nested(runs["roots-nested"], "roots/list");
  if (samplingNested) out.samplingNested = samplingNested;
  if (runs["sampling-fan-out"]) out.samplingPeak = peakOf(runs["sampling-fan-out"], "sampling/createMessage");
  if (rootsNested) out.rootsNested = rootsNested;
  return out;
}
