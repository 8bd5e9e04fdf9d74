// A history's ranges, and its cells against the hand-written ranges (expected/history/<sdk>.json): pure functions.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { EXPECTED_DIR } from "../paths.js";
import { compareReleases, type ExpectedHistory, type HistoryDifference, type HistoryRange, type HistoryRow } from "../plan/history.js";
import type { WireFrame } from "../history/timeline.js";
import { isRequest, resultOf } from "../history/frames.js";
import { withdrawAbortsCell, type CancelRunEvidence } from "./card-cancel.js";
import { ExpectationError } from "./expectations.js";

export const HISTORY_EXPECTED_DIR = join(EXPECTED_DIR, "history");

/** The card's ping values (lab/check/card.ts pingCell) as a history's words: the one place they are mapped. */
export const PING_WORD: Readonly<Record<string, string>> = {
  "answered while the callback runs": "answers",
  "answered only after the callback answers": "waits",
};

/** The card's fan-out values (lab/check/card-requests.ts peakOf) a history's cell takes as they are. */
export const PEAK_WORDS: readonly string[] = ["several at once", "one at a time"];

/** probe_receive_loop's verdict (lab/peers/ts1/probe-judge.ts), read from the server's own reply on the wire:
 *  what `serve --once` would tell a user of this release. */
export function probeVerdict(wire: readonly WireFrame[]): { outcome: string; detail: string } | { problem: string } {
  const call = wire.find((f) => f.from === "client" && isRequest(f.label) && f.label.method === "tools/call" && (f.message as { params?: { name?: unknown } }).params?.name === "probe_receive_loop");
  if (!call) return { problem: "the client never called probe_receive_loop" };
  const reply = wire.find((f) => f.replyTo === call.index);
  const structured = (resultOf(reply?.message) as { structuredContent?: { verdict?: unknown; reason?: unknown } } | undefined)?.structuredContent;
  if (typeof structured?.verdict !== "string") return { problem: reply ? "probe_receive_loop's reply has no verdict" : "probe_receive_loop was never answered" };
  return { outcome: structured.verdict, detail: String(structured.reason ?? "") };
}

/** The cancel-of-request-id-0 row's words (typescript-sdk #2283), from the card's server-withdraws cell: the
 *  server withdraws its request #0, then #1, each while the client's callback runs. */
export const CANCEL_ZERO_WORD = {
  aborted: "aborted",
  ignored: "ignored: id 0 only",
  never: "never aborted",
} as const;

/** Whether the client's callback for the server's request id 0 saw its abort, beside the later request's. */
export function cancelZeroOutcome(run: CancelRunEvidence): { outcome: string; detail: string } | { problem: string } {
  const first = run.wire.find((f) => f.from === "server" && isRequest(f.label) && f.label.method === "elicitation/create");
  if (first?.label.id !== 0) return { problem: `the server's first form has id ${String(first?.label.id)}, not 0` };
  const cell = withdrawAbortsCell(run);
  const [zero, later] = String(cell.value).split(" · ").map((part) => /: (aborted|not aborted)/.exec(part)?.[1]);
  if (zero === undefined || later === undefined) return { problem: String(cell.value) };
  const outcome = zero === "aborted" ? CANCEL_ZERO_WORD.aborted : later === "aborted" ? CANCEL_ZERO_WORD.ignored : CANCEL_ZERO_WORD.never;
  return { outcome, detail: String(cell.text) };
}

/** The row's cells, in release order, as ranges of one outcome. */
export function rangesOf(row: HistoryRow): HistoryRange[] {
  const ranges: HistoryRange[] = [];
  for (const cell of [...row.cells].sort((a, b) => compareReleases(a.release, b.release))) {
    const last = ranges.at(-1);
    if (last && last.outcome === cell.outcome) last.to = cell.release;
    else ranges.push({ outcome: cell.outcome, from: cell.release, to: cell.release });
  }
  return ranges;
}

/** "deadlocks 1.10.0-1.30.0, completes 2.0.0-2.3.0" */
export const rangesText = (ranges: readonly HistoryRange[]): string =>
  ranges.map((r) => `${r.outcome} ${r.from === r.to ? r.from : `${r.from}-${r.to}`}`).join(", ");

/** The outcome the expectation gives a release, or undefined when no range holds it. */
export function expectedOutcome(expected: ExpectedHistory, behaviour: string, release: string): string | undefined {
  return expected.behaviours[behaviour]?.ranges.find((r) => compareReleases(release, r.from) >= 0 && compareReleases(release, r.to) <= 0)?.outcome;
}

/** Every cell whose outcome is not the expected one (a cell no range holds differs too). */
export function historyDifferences(rows: readonly HistoryRow[], expected: ExpectedHistory): HistoryDifference[] {
  return rows.flatMap((row) =>
    row.cells.flatMap((cell) => {
      const want = expectedOutcome(expected, row.id, cell.release) ?? "no expected range";
      return want === cell.outcome ? [] : [{ behaviour: row.id, release: cell.release, expected: want, actual: `${cell.outcome} (${cell.detail})` }];
    }),
  );
}

/** expected/history/<sdk>.json, checked for shape: every range names an outcome, its bounds and its source. */
export function loadExpectedHistory(sdk: string, dir = HISTORY_EXPECTED_DIR): ExpectedHistory | undefined {
  const file = join(dir, `${sdk}.json`);
  if (!existsSync(file)) return undefined;
  const data = JSON.parse(readFileSync(file, "utf8")) as ExpectedHistory;
  for (const [id, b] of Object.entries(data.behaviours ?? {}))
    for (const r of b.ranges ?? [])
      if (![r.outcome, r.from, r.to, r.source].every((v) => typeof v === "string" && v.length > 0) || compareReleases(r.from, r.to) > 0)
        throw new ExpectationError(`${file}: ${id}: a range needs outcome, from <= to and source`);
  return data;
}
