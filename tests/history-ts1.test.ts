// `history --client ts1` (issue 46): a sample of three 1.x releases run for real (the first, 1.0.4, and 1.24.3,
// the last whose client honours a cancel of request id 0, each installed under build/history/ts1/; the last,
// 1.32.2, the lab's own install) against expected/history/ts1.json; a corrupted expectation rejected naming the
// release; corrupted id-0 evidence rejected; the adapter's API table checked against a release; bad input.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./support/cli.js";
import { assertNpmHistoryBadInput, movedBoundary } from "./support/history.js";
import { runHistory } from "../lab/cli/history.js";
import { cancelZeroOutcome, rangesText } from "../lab/check/history.js";
import type { HistoryData } from "../lab/plan/history.js";
import type { SessionEvidence } from "../lab/plan/session.js";
import { historyPrefix, newestPerMinor, TS1_HISTORY } from "../lab/peers/ts1/history.js";
import { API, loadApi } from "../lab/peers/ts1/history-client.js";

const SAMPLE = ["1.0.4", "1.24.3", "1.32.2"];
const out = mkdtempSync(join(tmpdir(), "lab-history-ts1-"));
let sample: Promise<HistoryData> | undefined;
const ran = () => (sample ??= runHistory({ releases: SAMPLE, listed: "test", outDir: out, expectedDir: join(ROOT, "expected", "history"), source: TS1_HISTORY }));

test.after(() => rmSync(out, { recursive: true, force: true }));

test("one release per minor: the newest patch of each 1.x minor, prereleases and 0.x left out", () => {
  assert.equal(newestPerMinor(["0.7.0", "1.0.0", "1.0.4", "1.10.2", "1.9.0", "1.23.0-beta.0", "1.23.0", "1.23.1", "2.0.0"]), ["1.0.4", "1.9.0", "1.10.2", "1.23.1"]);
  assert.match(historyPrefix("1.24.3"), /build\/history\/ts1\/1\.24\.3$/);
  assert.is(historyPrefix("1.32.2"), ROOT.replace(/\/$/, ""));
});

test("three releases: every cell as expected/history/ts1.json says; id 0's cancel aborts up to 1.24, is ignored in 1.32", async () => {
  const data = await ran();
  assert.equal(data.differences, [], JSON.stringify(data.differences));
  assert.is(rangesText(data.ranges["cancel0.stdio"]!), "n/a 1.0.4, aborted 1.24.3, ignored: id 0 only 1.32.2");
  assert.is(rangesText(data.ranges["samplingNested.stdio"]!), "completes 1.0.4-1.32.2");
  assert.is(rangesText(data.ranges["nested.stdio"]!), "n/a 1.0.4, completes 1.24.3-1.32.2");
});

test("the id-0 boundary moved in the expectation fails, naming 1.24.3", async () => {
  const differs = movedBoundary(await ran(), "cancel0.stdio", { outcome: "aborted", to: "1.23.1" }, { outcome: "ignored: id 0 only", from: "1.24.3" });
  assert.equal(differs, ["cancel0.stdio 1.24.3 ignored: id 0 only"]);
});

test("corrupted id-0 evidence: an abort added reads as aborted, a renumbered first form is not a cancel of id 0", async () => {
  await ran();
  const run = JSON.parse(readFileSync(join(out, "history", "ts1-1.32.2.cancel0.stdio.json"), "utf8")) as SessionEvidence;
  assert.is((cancelZeroOutcome(run) as { outcome: string }).outcome, "ignored: id 0 only");
  const aborted = structuredClone(run);
  const later = aborted.events.find((e) => e.side === "client" && e.kind === "callback.aborted")!;
  aborted.events.push({ ...structuredClone(later), id: 0 });
  assert.is((cancelZeroOutcome(aborted) as { outcome: string }).outcome, "aborted");
  const renumbered = structuredClone(run);
  const form = renumbered.wire.find((f) => f.from === "server" && f.label.method === "elicitation/create")!;
  form.label.id = 7;
  assert.equal(cancelZeroOutcome(renumbered), { problem: "the server's first form has id 7, not 0" });
});

test("the adapter's API table is checked against the release: a row moved past 1.32.2 is refused", async () => {
  const prefix = historyPrefix("1.32.2");
  await loadApi("1.32.2", prefix);
  const moved = API.map((row) => (row.name === "ElicitationCompleteNotificationSchema" ? { ...row, from: "1.33.0" } : row));
  const error = await loadApi("1.32.2", prefix, moved).then(() => undefined, (e: Error) => e.message);
  assert.is(error, "the API table disagrees with @modelcontextprotocol/sdk 1.32.2: ElicitationCompleteNotificationSchema (table: from 1.33.0; installed: present)");
});

test("bad input is one line and exit 2: --versions matching no 1.x minor, a transport with no ts1 history, no registry", () => assertNpmHistoryBadInput("ts1", "@modelcontextprotocol/sdk"));

test.run();
