// `history --client ts2` (issue 46): a sample of three 2.x releases of @modelcontextprotocol/client run for real
// (the first, 2.0.0, and 2.1.0, the first whose client honours a cancel of request id 0, each installed under
// build/history/ts2/; the last, 2.4.0, the lab's own install) against expected/history/ts2.json; a moved boundary
// rejected naming the release; the adapter's API table checked against a release; bad input.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./support/cli.js";
import { assertNpmHistoryBadInput, movedBoundary } from "./support/history.js";
import { runHistory } from "../lab/cli/history.js";
import { rangesText } from "../lab/check/history.js";
import type { HistoryData } from "../lab/plan/history.js";
import { EVERY_RELEASE_UP_TO, TS2_HISTORY, ts2HistoryPrefix, ts2Pick } from "../lab/peers/ts2/history.js";
import { API, loadApi } from "../lab/peers/ts2/history-client.js";

const SAMPLE = ["2.0.0", "2.1.0", "2.4.0"];
const out = mkdtempSync(join(tmpdir(), "lab-history-ts2-"));
let sample: Promise<HistoryData> | undefined;
const ran = () => (sample ??= runHistory({ releases: SAMPLE, listed: "test", outDir: out, expectedDir: join(ROOT, "expected", "history"), source: TS2_HISTORY }));

test.after(() => rmSync(out, { recursive: true, force: true }));

test("every 2.x release, prereleases and other majors left out; one per minor past the limit", () => {
  assert.equal(ts2Pick(["1.32.2", "2.0.0-beta.5", "2.1.0", "2.0.0", "2.3.1", "2.3.0", "3.0.0"]), ["2.0.0", "2.1.0", "2.3.0", "2.3.1"]);
  const many = Array.from({ length: EVERY_RELEASE_UP_TO + 1 }, (_, i) => `2.${Math.floor(i / 2)}.${i % 2}`);
  assert.equal(ts2Pick(many).length, Math.ceil(many.length / 2));
  assert.is(ts2Pick(many)[0], "2.0.1");
  assert.match(ts2HistoryPrefix("2.1.0"), /build\/history\/ts2\/2\.1\.0$/);
  assert.is(ts2HistoryPrefix("2.4.0"), ROOT.replace(/\/$/, ""));
});

test("three releases: every cell as expected/history/ts2.json says; id 0's cancel ignored in 2.0.0, aborted from 2.1.0", async () => {
  const data = await ran();
  assert.equal(data.differences, [], JSON.stringify(data.differences));
  assert.is(rangesText(data.ranges["cancel0.stdio"]!), "ignored: id 0 only 2.0.0, aborted 2.1.0-2.4.0");
  assert.is(rangesText(data.ranges["nested.stdio"]!), "completes 2.0.0-2.4.0");
  assert.is(rangesText(data.ranges["ping.stdio"]!), "answers 2.0.0-2.4.0");
});

test("the id-0 boundary moved in the expectation fails, naming 2.1.0", async () => {
  const differs = movedBoundary(await ran(), "cancel0.stdio", { outcome: "ignored: id 0 only", to: "2.1.0" }, { outcome: "aborted", from: "2.2.0" });
  assert.equal(differs, ["cancel0.stdio 2.1.0 ignored: id 0 only"]);
});

test("the adapter's API table is checked against the release: a row moved past 2.4.0 is refused", async () => {
  const prefix = ts2HistoryPrefix("2.4.0");
  await loadApi("2.4.0", prefix);
  const moved = API.map((row) => (row.name === "isInputRequiredResult" ? { ...row, from: "2.5.0" } : row));
  const error = await loadApi("2.4.0", prefix, moved).then(() => undefined, (e: Error) => e.message);
  assert.is(error, "the API table disagrees with @modelcontextprotocol/client 2.4.0: isInputRequiredResult (table: from 2.5.0; installed: present)");
});

test("bad input is one line and exit 2: --versions matching no 2.x release, a transport with no ts2 history, no registry", () => assertNpmHistoryBadInput("ts2", "@modelcontextprotocol/client"));

test.run();
