// Verifiers: pure functions of the evidence (timeline + wire) and a hand-written expectation.
// They never change the evidence and never look at anything else.
import { differenceLine, differences, diffs, type Difference } from "./compare.js";
import { median } from "./stats.js";
import type { EventSelector, Expectation, TimingRule } from "./expectations.js";
import { classify, FrameBook, isReply, isRequest, resultOf, withdrawnRequests } from "../history/frames.js";
import type { TimelineEvent, WireFrame } from "../history/timeline.js";
import { sessionBoundAt } from "./wait-end.js";

export interface Evidence {
  events: TimelineEvent[];
  wire: WireFrame[];
  /** failures of the session itself (bound exceeded, transport problems) */
  errors?: string[];
  /** the transport the run went over (a timing rule may be claimed over some only) */
  transport?: string;
  /** the server's own events when it ran in another process (null: it wrote none); absent: the
   *  server's events are in `events` (in memory, or a client driver in another process) */
  serverEvents?: TimelineEvent[] | null;
}

export interface Verdict {
  check: string;
  ok: boolean;
  /** one line per problem, for a terminal */
  details: string[];
  /** the same as data, where the check compares an expected value with the run's */
  differences?: Difference[];
}

const verdict = (check: string, details: string[]): Verdict => ({ check, ok: details.length === 0, details });
/** A verdict from a type-aware comparison: its lines and its differences as data. */
const compared = (check: string, expected: unknown, actual: unknown): Verdict => {
  const found = diffs(expected, actual);
  return { check, ok: found.length === 0, details: found.map(differenceLine), ...(found.length > 0 && { differences: found }) };
};

export function verify(evidence: Evidence, expected: Expectation): Verdict[] {
  return [
    verdict("session ran to the end", evidence.errors ?? []),
    verdict("timeline is intact", integrity(evidence)),
    compared("results (type-aware)", expected.results, resultsOf(evidence.events)),
    verdict("results match the wire", resultsAgreeWithWire(evidence)),
    compared("callback answers", expected.callbacks, callbackAnswers(evidence.events)),
    compared("frames on the wire", expected.wire, wireCounts(evidence.wire, Object.keys(expected.wire))),
    verdict("each request has one reply with its id", replyProblems(evidence.wire, sessionBoundAt(evidence.events))),
    verdict("server requests sit inside a tools/call", nestingProblems(evidence.wire)),
    compared("nested requests", expected.nested, nestedOutcomes(evidence.events)),
    compared("client events", expected.events, eventCounts(evidence.events, Object.keys(expected.events))),
    ...(expected.serverEvents === undefined ? [] : [verdict("server events", serverEventProblems(evidence, expected.serverEvents))]),
    ...expected.order.map((rule) =>
      claimed(rule, evidence)
        ? verdict(`order: ${rule.why}`, orderProblems(evidence.events, rule.first, rule.then))
        : verdict(`order: ${rule.why} (not claimed over ${evidence.transport}: ${rule.over!.why})`, []),
    ),
    ...(expected.peakCallbacks === undefined
      ? []
      : [compared("callbacks running at once (peak)", expected.peakCallbacks, peakCallbacks(evidence.events))]),
    ...(expected.peakAtLeast === undefined
      ? []
      : [verdict(`callbacks running at once: at least ${expected.peakAtLeast.callbacks} (${expected.peakAtLeast.why})`, atLeast(peakCallbacks(evidence.events), expected.peakAtLeast.callbacks))]),
    ...(expected.timing ?? []).map((rule) =>
      claimed(rule, evidence)
        ? verdict(`timing: ${rule.why}`, timingProblems(evidence.events, rule))
        : verdict(`timing: ${rule.why} (not claimed over ${evidence.transport}: ${rule.over!.why})`, []),
    ),
  ];
}

const atLeast = (got: number, want: number): string[] => (got >= want ? [] : [`peak ${got}, expected at least ${want}`]);

/** Is this rule claimed over the run's transport? (Absent `over`: over every one.) */
const claimed = (rule: { over?: { transports: string[] } }, evidence: Evidence) =>
  !rule.over || evidence.transport === undefined || rule.over.transports.includes(evidence.transport);

/** The most client callbacks that were inside their handler at the same moment. */
export function peakCallbacks(events: TimelineEvent[]): number {
  let running = 0;
  let peak = 0;
  for (const e of events) {
    if (e.side !== "client") continue;
    if (e.kind === "callback.entered") peak = Math.max(peak, ++running);
    if (e.kind === "callback.left") running--;
  }
  return peak;
}

/**
 * The median time the callbacks of one call spent in their handlers: the unit timing bounds are
 * written in. A median, so one callback delayed by a busy machine does not move the unit.
 */
export function callbackTime(events: TimelineEvent[], call = "first"): number | undefined {
  const spans = callbackDurations(events, call);
  return spans.length === 0 ? undefined : median(spans);
}

/** Each callback's own time (callback.entered -> callback.left) during one call, in order. */
export function callbackDurations(events: TimelineEvent[], call = "first"): number[] {
  const entered = new Map<unknown, number>();
  const spans: number[] = [];
  for (const e of events) {
    if (e.side !== "client" || e.detail?.call !== call) continue;
    if (e.kind === "callback.entered") entered.set(e.detail?.n, e.t);
    if (e.kind === "callback.left" && entered.has(e.detail?.n)) spans.push(e.t - entered.get(e.detail?.n)!);
  }
  return spans;
}

/** The sum of the callbacks' own times during one call: what the call lasts if they run one by one. */
export function callbackSum(events: TimelineEvent[], call = "first"): number | undefined {
  const spans = callbackDurations(events, call);
  return spans.length === 0 ? undefined : spans.reduce((a, b) => a + b, 0);
}

function timingProblems(events: TimelineEvent[], rule: TimingRule): string[] {
  const from = selectEvent(events, rule.from);
  const to = selectEvent(events, rule.to);
  if (!from) return [`no event matches ${describeSelector(rule.from)}`];
  if (!to) return [`no event matches ${describeSelector(rule.to)}`];
  const span = to.t - from.t;
  const out: string[] = [];
  if (rule.atMostMs !== undefined && span > rule.atMostMs) out.push(`${span.toFixed(1)} ms, expected at most ${rule.atMostMs} ms`);
  if (rule.atLeastCallbackSum !== undefined || rule.lessThanCallbackSum !== undefined) {
    const spans = callbackDurations(events, rule.unitCall);
    const sum = callbackSum(events, rule.unitCall);
    if (sum === undefined) return [...out, "no callback ran, so there is no callback time to measure against"];
    const shown = `${span.toFixed(1)} ms; the ${spans.length} callbacks of call ${rule.unitCall ?? "first"} took ${sum.toFixed(1)} ms together`;
    const factor = (f: number) => (f === 1 ? "their sum" : `${f} x their sum`);
    if (rule.atLeastCallbackSum !== undefined && span < rule.atLeastCallbackSum * sum) out.push(`${shown}, expected at least ${factor(rule.atLeastCallbackSum)}`);
    if (rule.lessThanCallbackSum !== undefined && !(span < rule.lessThanCallbackSum * sum)) out.push(`${shown}, expected less than ${factor(rule.lessThanCallbackSum)}`);
  }
  if (rule.atLeastCallbacks === undefined && rule.atMostCallbacks === undefined) return out;
  const unit = callbackTime(events, rule.unitCall);
  if (unit === undefined || unit <= 0) return ["no callback ran, so there is no callback time to measure against"];
  const ratio = span / unit;
  const shown = `${span.toFixed(1)} ms = ${ratio.toFixed(2)} x the median callback of call ${rule.unitCall ?? "first"} (${unit.toFixed(1)} ms)`;
  if (rule.atLeastCallbacks !== undefined && ratio < rule.atLeastCallbacks) out.push(`${shown}, expected at least ${rule.atLeastCallbacks} x`);
  if (rule.atMostCallbacks !== undefined && ratio > rule.atMostCallbacks) out.push(`${shown}, expected at most ${rule.atMostCallbacks} x`);
  return out;
}

export function resultsOf(events: TimelineEvent[]): Record<string, unknown> {
  const results: Record<string, unknown> = {};
  for (const e of events) {
    if (e.kind !== "tool.result" || !e.detail) continue;
    const call = String(e.detail.call);
    results[call] = "error" in e.detail ? { error: e.detail.error } : e.detail.result;
  }
  return results;
}

export function callbackAnswers(events: TimelineEvent[]): { call: unknown; action: unknown }[] {
  return events
    .filter((e) => e.kind === "callback.left")
    .map((e) => ({ call: e.detail?.call, action: e.detail?.action ?? `error: ${String(e.detail?.error)}` }));
}

export function wireCounts(wire: WireFrame[], methods: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const method of methods) counts[method] = 0;
  for (const { label } of wire) {
    if (isReply(label) || label.method === undefined) continue;
    if (label.method in counts) counts[label.method] = (counts[label.method] ?? 0) + 1;
  }
  return counts;
}

export function nestedOutcomes(events: TimelineEvent[]): { method: unknown; outcome: string; code?: unknown }[] {
  return events.flatMap((e) => {
    if (e.kind === "nested.ok") return [{ method: e.method, outcome: "ok" }];
    if (e.kind === "nested.failed") return [{ method: e.method, outcome: "failed", code: e.detail?.code }];
    return [];
  });
}

export function eventCounts(events: TimelineEvent[], kinds: string[], side: "client" | "server" = "client"): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of kinds) counts[kind] = events.filter((e) => e.side === side && e.kind === kind).length;
  return counts;
}

function serverEventProblems(evidence: Evidence, expected: Record<string, number>): string[] {
  if (evidence.serverEvents === null) return ["the server's own events are not available (its process wrote none)"];
  return differences(expected, eventCounts(evidence.serverEvents ?? evidence.events, Object.keys(expected), "server"));
}

/** Sequence numbers run 0..n-1 in order, time never goes back, frame events point at their frame. */
function integrity({ events, wire }: Evidence): string[] {
  const out: string[] = [];
  events.forEach((e, i) => {
    if (e.seq !== i) out.push(`event at position ${i} has seq ${e.seq}`);
    const prev = events[i - 1];
    if (prev && e.t < prev.t) out.push(`event seq ${e.seq} (${e.kind}) is earlier (${e.t} ms) than the one before it (${prev.t} ms)`);
    if (e.frame !== undefined) {
      const frame = wire[e.frame];
      if (!frame) out.push(`event seq ${e.seq} names frame ${e.frame}, which is not on the wire`);
      else {
        const id = classify(frame.message).id;
        if (e.id !== undefined && id !== e.id) out.push(`event seq ${e.seq} has id ${String(e.id)}, its frame ${e.frame} has id ${String(id)}`);
        if (e.kind === "frame.sent" && e.side !== frame.from) out.push(`event seq ${e.seq}: sent by ${e.side}, frame ${e.frame} is from ${frame.from}`);
        if (e.kind !== "frame.sent" && e.side !== frame.to) out.push(`event seq ${e.seq}: ${e.kind} at ${e.side}, frame ${e.frame} goes to ${frame.to}`);
      }
    }
  });
  // The labels stored at recording time must still be what the frames say.
  const book = new FrameBook();
  wire.forEach((f, i) => {
    if (f.index !== i) out.push(`wire frame at position ${i} has index ${f.index}`);
    const { label, replyTo } = book.label(f.from, f.message, i);
    const stored = differences({ label, replyTo: replyTo ?? null }, { label: f.label, replyTo: f.replyTo ?? null }, `$.wire[${i}]`);
    if (stored.length > 0) out.push(`wire frame ${i}: its stored label does not match the frame: ${stored.join("; ")}`);
    const prev = wire[i - 1];
    if (prev && f.t < prev.t) out.push(`wire frame ${i} is earlier than frame ${i - 1}`);
  });
  return out;
}

/** The tool.result the client recorded must be the structuredContent of that call's reply frame. */
function resultsAgreeWithWire({ events, wire }: Evidence): string[] {
  // A 2026-07-28 round (a result with resultType input_required) is not the call's end: the
  // client calls again with the answers, and that call's result is the one it records.
  const calls = wire.filter(
    (f) => f.from === "client" && isRequest(f.label) && f.label.method === "tools/call" && resultOf(replyTo(wire, f)?.message)?.resultType !== "input_required",
  );
  const recorded = events.filter((e) => e.kind === "tool.result");
  const out: string[] = [];
  if (calls.length !== recorded.length) out.push(`${calls.length} tools/call on the wire, ${recorded.length} tool.result events`);
  calls.forEach((call, i) => {
    const reply = replyTo(wire, call);
    const event = recorded[i];
    if (!reply || !event?.detail || "error" in event.detail) return;
    const onWire = resultOf(reply.message)?.structuredContent ?? null;
    out.push(...differences(onWire, event.detail.result, `$.${String(event.detail.call)}`).map((d) => `wire vs recorded: ${d}`));
  });
  return out;
}

/** The reply to a request: the frame whose stored replyTo names it (lab/history/frames.ts). */
export function replyTo(wire: WireFrame[], request: WireFrame): WireFrame | undefined {
  return wire.find((f) => f.replyTo === request.index);
}

/** Ids are per direction: a request from X is answered by exactly one frame from the other side,
 *  or by none when X withdrew it (notifications/cancelled) or the lab's bound ended the session after it; never by two. */
export function replyProblems(wire: WireFrame[], endedAt = -Infinity): string[] {
  const out: string[] = [];
  const withdrawn = withdrawnRequests(wire);
  for (const req of wire.filter((f) => isRequest(f.label))) {
    const replies = wire.filter((f) => f.replyTo === req.index);
    const what = `${req.label.method} #${String(req.label.id)} from ${req.from}`;
    if (replies.length !== 1 && !(replies.length === 0 && (withdrawn.has(req.index) || req.t < endedAt))) out.push(`${what} has ${replies.length} replies`);
    else if (replies[0] !== undefined && replies[0].index < req.index) out.push(`${what} is answered before it was sent`);
  }
  for (const f of wire) {
    if (isReply(f.label) && f.label.id !== undefined && f.replyTo === undefined) {
      out.push(`frame ${f.index} from ${f.from} replies to #${String(f.label.id)}, which ${f.to} never sent`);
    }
  }
  return out;
}

/** Every request the server sends lies between a client tools/call and that call's reply. */
export function nestingProblems(wire: WireFrame[]): string[] {
  const windows = wire
    .filter((f) => f.from === "client" && isRequest(f.label) && f.label.method === "tools/call")
    .map((call) => ({ start: call.index, end: replyTo(wire, call)?.index ?? Infinity }));
  return wire
    .filter((f) => f.from === "server" && isRequest(f.label))
    .filter((f) => !windows.some((w) => w.start < f.index && f.index < w.end))
    .map((f) => `${f.label.method} #${String(f.label.id)} (frame ${f.index}) is outside every tools/call`);
}

export function selectEvent(events: TimelineEvent[], selector: EventSelector): TimelineEvent | undefined {
  const matches = events.filter(
    (e) =>
      e.kind === selector.kind &&
      (selector.side === undefined || e.side === selector.side) &&
      (selector.method === undefined || e.method === selector.method) &&
      (selector.frameType === undefined || e.frameType === selector.frameType) &&
      (selector.call === undefined || e.detail?.call === selector.call) &&
      (selector.detail === undefined || Object.entries(selector.detail).every(([key, value]) => differences(value, e.detail?.[key]).length === 0)),
  );
  return matches[(selector.nth ?? 1) - 1];
}

export function describeSelector(s: EventSelector): string {
  const parts = [s.side, s.kind, s.method, s.frameType, s.call && `call=${s.call}`, s.detail && JSON.stringify(s.detail)].filter(Boolean);
  return `${parts.join(" ")}${s.nth && s.nth > 1 ? ` (#${s.nth})` : ""}`;
}

function orderProblems(events: TimelineEvent[], first: EventSelector, then: EventSelector): string[] {
  const a = selectEvent(events, first);
  const b = selectEvent(events, then);
  if (!a) return [`no event matches ${describeSelector(first)}`];
  if (!b) return [`no event matches ${describeSelector(then)}`];
  if (a.seq < b.seq) return [];
  return [`${describeSelector(first)} is seq ${a.seq}, not before ${describeSelector(then)} at seq ${b.seq}`];
}
