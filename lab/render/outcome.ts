// What happened in a run, in words, beside its verdict: "deadlocked until the 0.5 s limit, as
// expected" reads differently from "completed, as expected", though both are PASS. Read from the
// run's evidence only; whether the nested request deadlocked is the report card's own reading
// (lab/check/card.ts nestedCells: its reply was on the wire before the callback gave up), so the
// page, the text report and the card never disagree. No time in the words: they do not depend
// on the machine's load.
import { nestedCells } from "../check/card.js";
import type { TimelineEvent, WireFrame } from "../history/timeline.js";
import { findScenario } from "../../scenarios/index.js";

export type OutcomeKind = "completed" | "deadlock" | "broken" | "failed";

export interface RunOutcome {
  kind: OutcomeKind;
  /** what happened, without the verdict ("deadlocked until the 0.5 s limit") */
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

/** The scenario's nested limit as written in the scenario ("0.5 s"), if it has one. */
function limitOf(scenario: string): string | undefined {
  const ms = findScenario(scenario)?.calls.map((c) => c.callback?.nested?.timeoutMs).find((t) => t !== undefined);
  return ms === undefined ? undefined : ms >= 1000 || ms % 100 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

export function runOutcome(scenario: string, run: OutcomeRun): RunOutcome {
  const verdict = run.ok ? "as expected" : "NOT as expected";
  const out = (kind: OutcomeKind, what: string): RunOutcome => ({ kind, what, words: `${what}, ${verdict}` });
  if (run.fault) return out("failed", "the client driver failed");
  if (run.errors.length) return out("failed", "the session failed");
  const deadlock = run.events.find((e) => e.kind === "deadlock");
  if (deadlock?.detail?.action === "break") return out("broken", "deadlocked; the lab broke the cycle at once (--on-deadlock break)");
  const nested = run.events.some((e) => e.kind === "nested.sent") ? nestedCells({ events: [...run.events], wire: [...run.wire], negotiatedProtocol: run.negotiatedProtocol }).nested.value : undefined;
  if (deadlock || nested === "deadlocks until the limit") {
    const limit = limitOf(scenario);
    return out("deadlock", `deadlocked until the ${limit ? `${limit} ` : ""}limit`);
  }
  if (nested === "fails without a reply on the wire") return out("failed", "the nested request failed with no reply on the wire");
  const given = run.wire.filter((f) => f.from === "client" && f.label.method === "notifications/cancelled").length;
  return out("completed", given ? `completed; the client cancelled ${given} request${given === 1 ? "" : "s"}` : "completed");
}
