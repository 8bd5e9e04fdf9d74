// What the fan-out probe's reply times suggest, as a pure function of what the server saw. It is
// an inference, never a verdict: the server sees only when replies come, not how the client ran
// the callbacks. Replies are grouped into waves: a reply that comes at least a third of the first
// reply's time after the previous one starts a new wave. The first reply comes one callback time
// after the requests at the least (plus the round trip, plus whatever held it up), so one-at-a-time
// replies still start waves when the first was held up by up to two more callback times (#1 at 617
// ms, then 309, 306, 304 ms apart, seen in npm test), and a reply held up by less than a third of
// a callback stays in its wave (#4 86 ms after #1-#3 at 316 ms, seen in npm test on a busy machine).
import type { Settlement } from "./probe-judge.js";

export interface FanOutReply extends Settlement {
  /** 1-based position of the request, in the order they were sent */
  request: number;
  action?: string;
}

export interface FanOutObservation {
  n: number;
  limitMs: number;
  /** null: not sent, because the client declared no form elicitation */
  replies: FanOutReply[] | null;
}

export type FanOutPattern = "one_at_a_time" | "all_at_once" | "some_at_a_time" | "none";

export interface FanOutInference {
  status: "ran" | "not_run";
  reason: string;
  /** always "inference": what the times suggest, with the limits below */
  label: "inference";
  pattern: FanOutPattern;
  /** request numbers in the order their replies were read */
  replyOrder: number[];
  inRequestOrder: boolean;
  /** one callback time: ms from sending to the first reply (about one callback plus the round
   *  trip), or the shortest gap between waves when that is shorter */
  oneCallbackMs: number | null;
  waves: number;
  /** n / waves, rounded up: about how many callbacks ran at once */
  aboutAtOnce: number | null;
  limits: string;
}

export const FAN_OUT_LIMITS =
  "This is read from reply times only. Callbacks that take different times (a person answering forms in any order) can look like any pattern; a client that shows one form at a time in its UI while its loop reads concurrently looks one at a time; replies that all come at once may come from a client that answers without running a callback; the times include the transport. The receive-loop probe (probe_receive_loop) tests the loop itself.";

export function inferFanOut(o: FanOutObservation): FanOutInference {
  const none = { label: "inference" as const, limits: FAN_OUT_LIMITS, pattern: "none" as const, oneCallbackMs: null, waves: 0, aboutAtOnce: null };
  if (!o.replies) return { status: "not_run", reason: "the client declared no form elicitation capability (capabilities.elicitation.form), so nothing was sent", replyOrder: [], inRequestOrder: false, ...none };
  const read = [...o.replies].sort((a, b) => a.seq - b.seq);
  const replyOrder = read.filter((r) => r.outcome === "result" || r.outcome === "error").map((r) => r.request);
  const inRequestOrder = replyOrder.every((r, i) => i === 0 || r > replyOrder[i - 1]!);
  const base = { replyOrder, inRequestOrder };
  const missing = read.filter((r) => r.outcome !== "result");
  if (missing.length > 0) {
    const how = [...new Set(missing.map((r) => r.outcome === "error" ? `error ${r.error?.code ?? ""}`.trim() : r.outcome === "limit" ? `no answer within the probe's limit of ${o.limitMs} ms` : r.outcome))];
    return { status: "not_run", reason: `${missing.length} of ${o.n} requests got no answer (${how.join("; ")})`, ...base, ...none };
  }
  const refused = read.filter((r) => r.action !== "accept");
  if (refused.length > 0) {
    return { status: "not_run", reason: `${refused.length} of ${o.n} requests were answered ${[...new Set(refused.map((r) => r.action))].join(" or ")}: a decline or cancel may come without any callback running, so the times say nothing`, ...base, ...none };
  }
  const first = read[0]!.atMs;
  const between = read.slice(1).map((r, i) => r.atMs - read[i]!.atMs).filter((gap) => gap >= first / 3);
  const unit = Math.min(first, ...between);
  const waves = 1 + between.length;
  const pattern: FanOutPattern = o.n === 1 ? "none" : waves === 1 ? "all_at_once" : waves === o.n && inRequestOrder ? "one_at_a_time" : "some_at_a_time";
  const reason =
    o.n === 1
      ? "one request: there is no order to read"
      : pattern === "all_at_once"
        ? `all ${o.n} replies came within half a callback time of each other: the callbacks seem to have run at once`
        : pattern === "one_at_a_time"
          ? `the replies came in request order, about one callback time apart (${waves} waves): the callbacks seem to have run one at a time, as under a loop that waits for each callback`
          : `the replies came in ${waves} waves${inRequestOrder ? "" : ", not in request order"}: about ${Math.ceil(o.n / waves)} at a time`;
  return { status: "ran", reason, label: "inference", pattern, ...base, oneCallbackMs: unit, waves, aboutAtOnce: Math.ceil(o.n / waves), limits: FAN_OUT_LIMITS };
}

export function fanOutParagraph(o: FanOutObservation, inf: FanOutInference): string {
  const head = inf.status === "not_run" ? `The fan-out probe could not run: ${inf.reason}.` : `Inference (not a verdict): ${inf.reason}.`;
  if (!o.replies) return head;
  const times = [...o.replies].sort((a, b) => a.seq - b.seq).map((r) => `#${r.request} ${r.outcome === "result" ? `${String(r.action)} at ${r.atMs} ms` : r.outcome}`);
  return `${head} ${o.n} elicitation requests were sent at once; replies in the order read: ${times.join(", ")}. ${inf.limits}`;
}
