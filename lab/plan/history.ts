// A release history (issue 46): one row per behaviour, one cell per release, and the ranges in which each outcome
// holds; the hand-written expectation (expected/history/<sdk>.json) is ranges too. A HistorySource is one SDK's
// part: where its releases come from, how each is installed, and the client peer that runs on it.
import type { ClientPeer } from "./peer.js";

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
/** a cell whose session stayed slow through every attempt (lab/check/server-slow.ts): no claim either way; it differs from any expectation */
export const INCONCLUSIVE = "inconclusive";

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

/** The registry's releases, newest last; or why it could not be read (one line). */
export type ReleaseList = { versions: string[]; listed: string; cached: boolean } | { problem: string };

/** One SDK's history (lab/peers/history-sources.ts lists them; `history --client <sdk>` picks one). */
export interface HistorySource {
  /** the --client name, and expected/history/<sdk>.json */
  sdk: string;
  /** the SDK as the page names it: "mcp (Python SDK)" */
  title: string;
  /** the package as its registry names it, for messages: "mcp" */
  package: string;
  /** which releases the history covers, one sentence for the page */
  which: string;
  releases(): ReleaseList;
  /** why the release cannot run here, or undefined once installed (installed now if need be) */
  install(release: string): Promise<string | undefined>;
  /** how many installs may run at once (a compile per release costs more than a venv); absent: the command's default */
  installsAtOnce?: number;
  /** a client peer on the installed release */
  client(release: string): ClientPeer;
  /** the behaviours it runs (ids of lab/cli/history.ts BEHAVIOURS): the first release each can arise in, and why not before */
  behaviours: Readonly<Record<string, { from?: string; why?: string }>>;
  transports: readonly string[];
  /** a transport's first release (the client it needs ships from then), and why not before: its cells are n/a */
  transportsFrom?: Readonly<Record<string, { from: string; why: string }>>;
  /** why any other transport has no history */
  noTransport: string;
  /** how each release was installed, one sentence for the page */
  installNote: string;
}

/** Every form row (as formBehaviours names them) from the first release listed, for an SDK whose every release
 *  has elicitation; `extra` adds rows (samplingAnswer). */
export const everyFormRow = (extra: HistorySource["behaviours"] = {}): HistorySource["behaviours"] => ({ nested: {}, samplingNested: {}, rootsNested: {}, ping: {}, fanOut: {}, probe: {}, cancel0: {}, ...extra });

/** The rows a form can arise in (nested, ping, fan-out, the probe, cancel0) from the release that added elicitation, with `why` for the
 *  releases before it; sampling and roots from the first; `extra` adds rows (samplingAnswer). Row order is BEHAVIOURS'. */
export function formBehaviours(firstWithElicitation: string, why: string, extra: HistorySource["behaviours"] = {}): HistorySource["behaviours"] {
  const since = { from: firstWithElicitation, why };
  // the ts1 server numbers its forms from 0 and withdraws #0, then #1: whether the callback sees the abort
  return { nested: since, samplingNested: {}, rootsNested: {}, ping: since, fanOut: since, probe: since, cancel0: { from: firstWithElicitation, why: `${why}: the scenario's request id 0 is a form` }, ...extra };
}

export interface HistoryData {
  sdk: string;
  /** the source's title and which releases, for the page */
  title: string;
  which: string;
  /** when the release list was read from the index, and whether it came from the cache */
  listed: string;
  releases: string[];
  /** how each release's venv was resolved, in one sentence for the page */
  install: string;
  rows: HistoryRow[];
  ranges: Record<string, HistoryRange[]>;
  differences: HistoryDifference[];
}
