// The history tests' corrupted expectation (issue 46): a row's boundary moved in a copy of expected/history/<sdk>.json,
// and the differences the run then shows, each as "<behaviour> <release> <expected outcome>"; and the npm
// histories' bad input (ts1, ts2), each one line and exit 2.
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { runCli, runMain } from "./cli.js";
import { cancelZeroOutcome, historyDifferences, loadExpectedHistory } from "../../lab/check/history.js";
import type { SessionEvidence } from "../../lab/plan/session.js";
import type { ExpectedHistory, HistoryData } from "../../lab/plan/history.js";

/** `before`'s range now ends at `to` and `after`'s begins at `from`; everything else as written. */
export function movedBoundary(data: HistoryData, behaviour: string, before: { outcome: string; to: string }, after: { outcome: string; from: string }): string[] {
  const moved: ExpectedHistory = structuredClone(loadExpectedHistory(data.sdk)!);
  const ranges = moved.behaviours[behaviour]!.ranges;
  ranges.find((r) => r.outcome === before.outcome)!.to = before.to;
  ranges.find((r) => r.outcome === after.outcome)!.from = after.from;
  return historyDifferences(data.rows, moved).map((d) => `${d.behaviour} ${d.release} ${d.expected}`);
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** `history --client <sdk>` of the npm package `pkg`: --versions matching nothing, an HTTP transport, and a
 *  registry nothing listens on (its own cache key, so never cached) are each one line and exit 2. */
export async function assertNpmHistoryBadInput(sdk: string, pkg: string): Promise<void> {
  for (const [args, says] of [
    [["--versions", "3.0.0..3.1.0"], new RegExp(`matches no release of ${escaped(pkg)}|no npm registry`)],
    [["--transport", "http"], /no http history: the history runs each release's Client in this process/],
  ] as const) {
    const cli = runCli(["history", "--client", sdk, ...args]);
    assert.is(cli.code, 2, cli.stderr);
    assert.is(cli.stderr.trim().split("\n").length, 1, cli.stderr);
    assert.match(cli.stderr, says);
  }
  const saved = process.env.npm_config_registry;
  process.env.npm_config_registry = "http://127.0.0.1:9/";
  try {
    const r = await runMain(["history", "--client", sdk]);
    assert.is(r.code, 2);
    assert.is(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`no npm registry: npm view ${escaped(pkg)} versions could not reach http://127\\.0\\.0\\.1:9/`));
  } finally {
    if (saved === undefined) delete process.env.npm_config_registry;
    else process.env.npm_config_registry = saved;
  }
}

/** A release's real cancel0 run, read as "aborted"; with its id-0 abort removed it must read as id 0 ignored, and with
 *  every abort removed as never aborted: the row's reading is shown to follow the evidence. */
export function assertWithdrawalCorruptions(file: string): void {
  const run = JSON.parse(readFileSync(file, "utf8")) as SessionEvidence;
  const outcome = (r: SessionEvidence) => (cancelZeroOutcome(r) as { outcome: string }).outcome;
  assert.is(outcome(run), "aborted");
  const aborted = (e: SessionEvidence["events"][number]) => e.side === "client" && e.kind === "callback.aborted";
  const zeroKept = structuredClone(run);
  zeroKept.events = zeroKept.events.filter((e) => !(aborted(e) && e.id === 0));
  assert.is(outcome(zeroKept), "ignored: id 0 only");
  const none = structuredClone(run);
  none.events = none.events.filter((e) => !aborted(e));
  assert.is(outcome(none), "never aborted");
}
