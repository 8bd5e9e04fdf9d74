// The receive-loop probe's verdict: a pure function of what the server saw (lab/peers/ts1/
// probe-observe.ts). The evidence is ORDER, not time: the server numbers every reply as its SDK
// reads it, and a ping answered before the elicitation's reply was read while a callback ran.
// Times are reported, never judged, except through the count of pings the fixed interval sent.

/** How a request the probe sent ended, as the server saw it. */
export type Outcome =
  | "result" // the client replied with a result
  | "error" // the client replied with a JSON-RPC error (a reply all the same)
  | "limit" // no reply within the probe's own limit: withdrawn (notifications/cancelled)
  | "unanswered" // a ping still open when the probe stopped waiting for pings
  | "closed"; // the connection closed first

export interface Settlement {
  outcome: Outcome;
  /** ms from the elicitation being sent, when the server's SDK settled it */
  atMs: number;
  /** position among every settlement of this probe run, in the order the server read them */
  seq: number;
  error?: { code: number | null; message: string };
}

export interface PingRecord extends Settlement {
  /** 1 for the ping sent right after the elicitation, then one per interval */
  n: number;
  sentAtMs: number;
}

export interface LoopObservation {
  intervalMs: number;
  limitMs: number;
  /** null: not sent, because the client declared no form elicitation */
  elicitation: (Settlement & { action?: string; content?: unknown }) | null;
  /** every ping sent; all of them were sent while the elicitation was pending */
  pings: PingRecord[];
}

export type LoopVerdict = "concurrent" | "serial" | "inconclusive" | "not_run";

/** Unanswered pings, sent over (MIN_PINGS - 1) whole intervals, before a loop is called serial. */
export const MIN_PINGS_FOR_SERIAL = 3;

const replied = (s: Settlement) => s.outcome === "result" || s.outcome === "error";

export interface LoopJudgement {
  verdict: LoopVerdict;
  /** why, in one sentence */
  reason: string;
  pingsSent: number;
  /** pings whose reply the server read before the elicitation's reply */
  answeredWhilePending: number;
  answeredAfter: number;
  /** where the first ping reply sits relative to the elicitation reply, in read order */
  firstPingReply: "before_elicitation_reply" | "after_elicitation_reply" | "none";
  /** read order of every reply and ending: "elicitation", "ping 1", ... */
  order: string[];
}

export function judgeLoop(o: LoopObservation): LoopJudgement {
  const e = o.elicitation;
  const order = [...(e ? [{ seq: e.seq, name: `elicitation (${e.outcome})` }] : []), ...o.pings.map((p) => ({ seq: p.seq, name: `ping ${p.n} (${p.outcome})` }))]
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
    firstPingReply: !first || !e ? ("none" as const) : first.seq < e.seq ? ("before_elicitation_reply" as const) : ("after_elicitation_reply" as const),
    order,
  };
  const notRun = (reason: string): LoopJudgement => ({ verdict: "not_run", reason, ...base });
  if (!e) return notRun("the client declared no form elicitation capability (capabilities.elicitation.form), so nothing was sent");
  if (e.outcome === "limit") return notRun(`the client did not answer the elicitation within the probe's limit of ${o.limitMs} ms; the probe withdrew it`);
  if (e.outcome === "closed") return notRun("the connection closed before the client answered the elicitation");
  if (e.outcome === "error") return notRun(`the client answered the elicitation with an error (${e.error?.code ?? "no code"}: ${e.error?.message ?? ""}), so no callback is known to have run`);
  if (e.action !== "accept") return notRun(`the client answered ${String(e.action)}: a decline or cancel may come without any callback running (a client with no form UI), so the probe does not judge it`);
  if (before.length > 0) return { verdict: "concurrent", reason: `${before.length} of ${o.pings.length} pings were answered while the elicitation was pending`, ...base };
  if (o.pings.length < MIN_PINGS_FOR_SERIAL) {
    return { verdict: "inconclusive", reason: `the elicitation was answered after ${e.atMs} ms, before a ping could tell (${o.pings.length} sent; ${MIN_PINGS_FOR_SERIAL} unanswered pings are needed)`, ...base };
  }
  if (after.length === 0) return { verdict: "inconclusive", reason: `the client answered none of the ${o.pings.length} pings, not even after the elicitation`, ...base };
  return { verdict: "serial", reason: `none of the ${o.pings.length} pings sent while the elicitation was pending was answered until after its reply`, ...base };
}

const MEANING: Record<LoopVerdict, string> = {
  concurrent: "Its receive loop reads new frames while a callback runs: a request sent from inside a callback will have its reply read.",
  serial: "Its receive loop waits for a callback before it reads the next frame: a callback that awaits a request on its own session will deadlock until that request times out.",
  inconclusive: "Answer the form only after waiting a couple of seconds, and run the probe again.",
  not_run: "The probe needs the form accepted after a short wait.",
};

const FIRST_PING: Record<LoopJudgement["firstPingReply"], string> = {
  before_elicitation_reply: "the first ping reply was read before the elicitation's reply",
  after_elicitation_reply: "the first ping reply was read after the elicitation's reply",
  none: "no ping reply was read",
};

/** One paragraph for the tool's text content. */
export function loopParagraph(o: LoopObservation, j: LoopJudgement): string {
  const e = o.elicitation;
  const head = `Verdict: ${j.verdict}${j.verdict === "not_run" ? " (the probe could not run)" : ""}: ${j.reason}.`;
  if (!e) return `${head} ${MEANING.not_run}`;
  const answer = e.outcome === "result" ? `answered ${String(e.action)}${e.content === undefined ? "" : ` with ${JSON.stringify(e.content)}`}` : `ended by ${e.outcome}`;
  const pings = `Pings, one every ${o.intervalMs} ms while it was pending: ${j.pingsSent} sent, ${j.answeredWhilePending} answered while it was pending, ${j.answeredAfter} after; ${FIRST_PING[j.firstPingReply]}.`;
  return `${head} The elicitation was ${answer} after ${e.atMs} ms. ${pings} ${MEANING[j.verdict]}`;
}
