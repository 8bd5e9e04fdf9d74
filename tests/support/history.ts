// The history tests' corrupted expectation (issue 46): a row's boundary moved in a copy of expected/history/<sdk>.json,
// and the differences the run then shows, each as "<behaviour> <release> <expected outcome>".
import { historyDifferences, loadExpectedHistory } from "../../lab/check/history.js";
import type { ExpectedHistory, HistoryData } from "../../lab/plan/history.js";

/** `before`'s range now ends at `to` and `after`'s begins at `from`; everything else as written. */
export function movedBoundary(data: HistoryData, behaviour: string, before: { outcome: string; to: string }, after: { outcome: string; from: string }): string[] {
  const moved: ExpectedHistory = structuredClone(loadExpectedHistory(data.sdk)!);
  const ranges = moved.behaviours[behaviour]!.ranges;
  ranges.find((r) => r.outcome === before.outcome)!.to = before.to;
  ranges.find((r) => r.outcome === after.outcome)!.from = after.from;
  return historyDifferences(data.rows, moved).map((d) => `${d.behaviour} ${d.release} ${d.expected}`);
}
