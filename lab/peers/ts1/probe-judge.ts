// The receive-loop probes' verdict (probe_receive_loop with an elicitation, probe_sampling with a
// sampling request): a pure function of what the server saw (lab/peers/ts1/probe-observe.ts). The
// evidence is ORDER, not time: the server numbers every reply as its SDK reads it, and a ping
// answered before the request's reply was read while a callback ran. Times are reported, never
// judged, except through the count of pings the fixed interval sent.
import type { ProbedMethod } from "../../plan/tool-suite.js";

/** How a request the probe sent ended, as the server saw it. */
export type Outcome =
  | "result" // the client replied with a result
  | "error" // the client replied with a JSON-RPC error (a reply all the same)
  | "limit" // no reply within the probe's own limit: withdrawn (notifications/cancelled)
  | "unanswered" // a ping still open when the probe stopped waiting for pings
  | "closed"; // the connection closed first

export interface Settlement {
  outcome: Outcome;
  /** ms from the probed request being sent, when the server's SDK settled it */
  atMs: number;
  /** position among every settlement of this probe run, in the order the server read them */
  seq: number;
  error?: { code: number | null; message: string };
}

export interface PingRecord extends Settlement {
  /** 1 for the ping sent right after the probed request, then one per interval */
  n: number;
  sentAtMs: number;
}

export interface LoopObservation {
  method: ProbedMethod;
  intervalMs: number;
  limitMs: number;
  /** null: not sent, because the client declared no capability for it */
  request: (Settlement & { action?: string; content?: unknown }) | null;
  /** every ping sent; all of them were sent while the request was pending */
  pings: PingRecord[];
}

/** How the judgement names the probed request, and the capability it needs. */
const NAMED: Record<ProbedMethod, { noun: string; capability: string }> = {
  "elicitation/create": { noun: "elicitation", capability: "form elicitation capability (capabilities.elicitation.form)" },
  "sampling/createMessage": { noun: "sampling request", capability: "sampling capability (capabilities.sampling)" },
};

export type LoopVerdict = "concurrent" | "serial" | "inconclusive" | "not_run";

/** Unanswered pings, sent over (MIN_PINGS - 1) whole intervals, before a loop is called serial. */
export const MIN_PINGS_FOR_SERIAL = 3;

const replied = (s: Settlement) => s.outcome === "result" || s.outcome === "error";

export interface LoopJudgement {
  verdict: LoopVerdict;
  /** why, in one sentence */
  reason: string;
  pingsSent: number;
  /** pings whose reply the server read before the request's reply */
  answeredWhilePending: number;
  answeredAfter: number;
  /** where the first ping reply sits relative to the request's reply, in read order */
  firstPingReply: "before_reply" | "after_reply" | "none";
  /** read order of every reply and ending: "elicitation (result)", "ping 1 (result)", ... */
  order: string[];
}

export function judgeLoop(o: LoopObservation): LoopJudgement {
  const e = o.request;
  const { noun, capability } = NAMED[o.method];
  const order = [...(e ? [{ seq: e.seq, name: `${noun} (${e.outcome})` }] : []), ...o.pings.map((p) => ({ seq: p.seq, name: `ping ${p.n} (${p.outcome})` }))]
    .sort((a, b) => a.seq - b.seq)
    .map((x) => x.name);
  const answered = o.pings.filter(replied);
  const before = e ? answered.filter((p) => p.seq < e.seq) : [];
  const after = e ? answered.filter((p) => p.seq > e.seq) : [];
  const first = [...answered].sort((a, b) => a.seq - b.seq)[0];
  const base = {
    pingsSent: o.pings.length,
    answeredWhilePending: before.length,
    answeredAfter: after.length,
    firstPingReply: !first || !e ? ("none" as const) : first.seq < e.seq ? ("before_reply" as const) : ("after_reply" as const),
    order,
  };
  const notRun = (reason: string): LoopJudgement => ({ verdict: "not_run", reason, ...base });
  if (!e) return notRun(`the client declared no ${capability}, so nothing was sent`);
  if (e.outcome === "limit") return notRun(`the client did not answer the ${noun} within the probe's limit of ${o.limitMs} ms; the probe withdrew it`);
  if (e.outcome === "closed") return notRun(`the connection closed before the client answered the ${noun}`);
  if (e.outcome === "error") return notRun(`the client answered the ${noun} with an error (${e.error?.code ?? "no code"}: ${e.error?.message ?? ""}), so no callback is known to have run`);
  // A sampling result is a completion: something produced it. A form's decline or cancel may not be.
  if (o.method === "elicitation/create" && e.action !== "accept") return notRun(`the client answered ${String(e.action)}: a decline or cancel may come without any callback running (a client with no form UI), so the probe does not judge it`);
  if (before.length > 0) return { verdict: "concurrent", reason: `${before.length} of ${o.pings.length} pings were answered while the ${noun} was pending`, ...base };
  if (o.pings.length < MIN_PINGS_FOR_SERIAL) {
    return { verdict: "inconclusive", reason: `the ${noun} was answered after ${e.atMs} ms, before a ping could tell (${o.pings.length} sent; ${MIN_PINGS_FOR_SERIAL} unanswered pings are needed)`, ...base };
  }
  if (after.length === 0) return { verdict: "inconclusive", reason: `the client answered none of the ${o.pings.length} pings, not even after the ${noun}`, ...base };
  return { verdict: "serial", reason: `none of the ${o.pings.length} pings sent while the ${noun} was pending was answered until after its reply`, ...base };
}

const MEANING: Record<LoopVerdict, string> = {
  concurrent: "Its receive loop reads new frames while a callback runs: a request sent from inside a callback will have its reply read.",
  serial: "Its receive loop waits for a callback before it reads the next frame: a callback that awaits a request on its own session will deadlock until that request times out.",
  inconclusive: "Answer only after waiting a couple of seconds, and run the probe again.",
  not_run: "The probe needs the form accepted (or the sampling request answered) after a short wait.",
};

const firstPing = (j: LoopJudgement, noun: string): string =>
  j.firstPingReply === "none" ? "no ping reply was read" : `the first ping reply was read ${j.firstPingReply === "before_reply" ? "before" : "after"} the ${noun}'s reply`;

/** One paragraph for the tool's text content. */
export function loopParagraph(o: LoopObservation, j: LoopJudgement): string {
  const e = o.request;
  const { noun } = NAMED[o.method];
  const head = `Verdict: ${j.verdict}${j.verdict === "not_run" ? " (the probe could not run)" : ""}: ${j.reason}.`;
  if (!e) return `${head} ${MEANING.not_run}`;
  const answered = e.action !== undefined ? `answered ${e.action}${e.content === undefined ? "" : ` with ${JSON.stringify(e.content)}`}` : "answered with a completion";
  const answer = e.outcome === "result" ? answered : `ended by ${e.outcome}`;
  const pings = `Pings, one every ${o.intervalMs} ms while it was pending: ${j.pingsSent} sent, ${j.answeredWhilePending} answered while it was pending, ${j.answeredAfter} after; ${firstPing(j, noun)}.`;
  return `${head} The ${noun} was ${answer} after ${e.atMs} ms. ${pings} ${MEANING[j.verdict]} (Measured with ${o.method}: a client may treat other request kinds differently.)`;
}
