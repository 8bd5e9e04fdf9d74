// What happened in a run, in words, beside its verdict: "deadlocked until the SDK's request limit
// (0.5 s), as expected" reads differently from "completed, as expected", though both are PASS. Read
// from the run's evidence only; whether the nested request deadlocked is the report card's own
// reading (lab/check/card-requests.ts nestedOutcome: its reply was on the wire before the callback
// gave up), and what ended the wait is read from the error it got (lab/check/wait-end.ts), never
// from the scenario's plan, so the page, the text report and the card never disagree. No measured
// time in the words: they do not depend on the machine's load (a configured length is structural).
import { failedNested } from "../check/card-requests.js";
import type { WaitEnd } from "../check/wait-end.js";
import type { TimelineEvent, WireFrame } from "../history/timeline.js";

export type OutcomeKind = "completed" | "deadlock" | "broken" | "failed";

export interface RunOutcome {
  kind: OutcomeKind;
  /** what happened, without the verdict ("deadlocked until the SDK's request limit (0.5 s, McpError 408)") */
  what: string;
  /** what happened and whether that was expected ("…, as expected" / "…, NOT as expected") */
  words: string;
}

interface OutcomeRun {
  events: readonly TimelineEvent[];
  wire: readonly WireFrame[];
  errors: readonly string[];
  negotiatedProtocol: string | null;
  ok: boolean;
  fault?: string;
}

/** "0.5 s", "1.5 s", "750 ms": a configured length as the evidence states it. */
export const lengthWords = (ms: number) => (ms >= 1000 || ms % 100 === 0 ? `${ms / 1000} s` : `${ms} ms`);

/** What ended a deadlock's wait, in words (no measured time): "the SDK's request limit (0.5 s, McpError 408)". */
export function waitEndWords(end: WaitEnd | undefined): string {
  if (!end) return "the nested request failed";
  const len = end.configuredMs === undefined ? "" : `${lengthWords(end.configuredMs)}, `;
  if (end.by === "session") return `the lab's ${end.configuredMs === undefined ? "" : `${lengthWords(end.configuredMs)} `}bound, which ended the session (${end.error}): nothing else could end the wait`;
  if (end.by === "backstop") return `the lab's ${end.configuredMs === undefined ? "" : `${lengthWords(end.configuredMs)} `}backstop (${end.error}): the SDK has no limit on this path`;
  return `${end.by === "sdk" ? "the SDK's request limit" : "the callback's own limit"} (${len}${end.error})`;
}

export function runOutcome(run: OutcomeRun): RunOutcome {
  const verdict = run.ok ? "as expected" : "NOT as expected";
  const out = (kind: OutcomeKind, what: string): RunOutcome => ({ kind, what, words: `${what}, ${verdict}` });
  if (run.fault) return out("failed", "the client driver failed");
  if (run.errors.length) return out("failed", "the session failed");
  const deadlock = run.events.find((e) => e.kind === "deadlock");
  if (deadlock?.detail?.action === "break") return out("broken", "deadlocked; the lab broke the cycle at once (--on-deadlock break)");
  const nested = run.events.some((e) => e.kind === "nested.sent") ? failedNested({ events: [...run.events], wire: [...run.wire] }) : undefined;
  if (nested?.waitEnd?.by === "session") return out("failed", `hangs, no limit, until ${waitEndWords(nested.waitEnd)}`);
  if (deadlock || nested?.deadlock) return out("deadlock", `deadlocked until ${waitEndWords(nested?.waitEnd)}`);
  if (nested?.failed) return out("failed", "the nested request failed with no reply on the wire");
  const given = run.wire.filter((f) => f.from === "client" && f.label.method === "notifications/cancelled").length;
  return out("completed", given ? `completed; the client cancelled ${given} request${given === 1 ? "" : "s"}` : "completed");
}
