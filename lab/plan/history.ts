// A release history (issue 46): one row per behaviour, one cell per release, and the ranges in which each outcome
// holds; the hand-written expectation (expected/history/<sdk>.json) is ranges too.

/** A release as numbers, for order and ranges ("1.10.0" after "1.9.4"). */
export function compareReleases(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split(".").map((p) => Number.parseInt(p, 10) || 0));
  for (let i = 0; i < Math.max(x!.length, y!.length); i++) if ((x![i] ?? 0) !== (y![i] ?? 0)) return (x![i] ?? 0) - (y![i] ?? 0);
  return 0;
}
export const atLeast = (v: string, first: string): boolean => compareReleases(v, first) >= 0;

/** An outcome: a word of the README's compact card (lab/check/card-words.ts), or "not run" (the cell says why). */
export type HistoryOutcome = string;
export const NOT_RUN = "not run";

export interface HistoryCell {
  release: string;
  outcome: HistoryOutcome;
  /** the card value it came from, or why it was not run */
  detail: string;
}

/** One behaviour over the releases: a scenario's card row over one transport. */
export interface HistoryBehaviour {
  id: string;
  title: string;
}

export interface HistoryRow extends HistoryBehaviour {
  cells: HistoryCell[];
}

/** Consecutive releases with one outcome. */
export interface HistoryRange {
  outcome: HistoryOutcome;
  from: string;
  to: string;
}

/** expected/history/<sdk>.json: per behaviour, the ranges expected, each with where in the source it was read. */
export interface ExpectedHistory {
  sdk: string;
  behaviours: Record<string, { ranges: (HistoryRange & { source: string })[] }>;
}

/** A cell that disagrees with the expected ranges, naming its release. */
export interface HistoryDifference {
  behaviour: string;
  release: string;
  expected: string;
  actual: string;
}

export interface HistoryData {
  sdk: string;
  /** when the release list was read from the index, and whether it came from the cache */
  listed: string;
  releases: string[];
  /** how each release's venv was resolved, in one sentence for the page */
  install: string;
  rows: HistoryRow[];
  ranges: Record<string, HistoryRange[]>;
  differences: HistoryDifference[];
}
