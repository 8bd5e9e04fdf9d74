// `history --client py` (issue 46): a sample of three releases run for real (the first with elicitation, 1.10.0,
// installed under build/history/py/; the last 1.x, 1.30.0, and 2.3.0 from the lab's own venvs), their ranges
// (nested in three callbacks, a ping during a form, the withdrawal of form #0) against expected/history/py.json, a corrupted expectation
// rejected naming its release, and bad input. Over Streamable HTTP, 1.8.0 and 1.8.1 (the boundary of python-sdk
// PR #693): a sampling answer during a tool call deadlocks, then completes; corrupted copies of that evidence rejected.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, runCli, runMain } from "./support/cli.js";
import { BEHAVIOURS, cellOf, pickReleases, runHistory } from "../lab/cli/history.js";
import { nestedOutcome } from "../lab/check/card-requests.js";
import { copy, memoryRun } from "./support/runs.js";
import { historyDifferences, loadExpectedHistory, rangesOf, rangesText } from "../lab/check/history.js";
import type { ExpectedHistory, HistoryData } from "../lab/plan/history.js";
import type { SessionEvidence } from "../lab/plan/session.js";
import { answerCell } from "../lab/check/answer-cell.js";
import { historyEnv } from "../lab/peers/python/history.js";
import { HISTORY_SOURCES } from "../lab/peers/history-sources.js";
import { CLIENT_PEERS } from "../lab/peers/registry.js";
import { PY130_ENV, PY_ENV } from "../lab/peers/python/envs.js";

const SAMPLE = ["1.10.0", "1.30.0", "2.3.0"];
let sample: HistoryData | undefined;
const out = mkdtempSync(join(tmpdir(), "lab-history-"));

async function ran(): Promise<HistoryData> {
  return (sample ??= await runHistory({ releases: SAMPLE, listed: "test", outDir: out, expectedDir: join(ROOT, "expected", "history"), transports: ["stdio"] }));
}

let httpSample: Promise<HistoryData> | undefined;
const ranHttp = () => (httpSample ??= runHistory({ releases: ["1.8.0", "1.8.1"], listed: "test", outDir: out, expectedDir: join(ROOT, "expected", "history"), transports: ["http"] }));

test.after(() => rmSync(out, { recursive: true, force: true }));

test("the sample reuses the lab's venvs where the release matches: 1.30.0 is py130's, 2.3.0 is py's", () => {
  assert.is(historyEnv("1.30.0").dir, PY130_ENV.dir);
  assert.is(historyEnv("2.3.0").dir, PY_ENV.dir);
  assert.match(historyEnv("1.10.0").dir, /build\/history\/py\/1\.10\.0$/);
});

test("three releases: every cell as expected/history/py.json says; the nested row deadlocks on 1.x and completes on 2.3.0", async () => {
  const data = await ran();
  assert.equal(data.differences, [], JSON.stringify(data.differences));
  const nested = data.rows.find((r) => r.id === "nested.stdio")!;
  assert.is(rangesText(rangesOf(nested)), "deadlocks 1.10.0-1.30.0, completes 2.3.0");
  for (const id of ["samplingNested.stdio", "rootsNested.stdio"]) assert.is(rangesText(data.ranges[id]!), "deadlocks 1.10.0-1.30.0, completes 2.3.0", id);
  assert.is(rangesText(data.ranges["ping.stdio"]!), "waits 1.10.0-1.30.0, answers 2.3.0");
  // Python's cancellation row: the serial 1.x loop reads the withdrawal only after the callback returns
  assert.is(rangesText(data.ranges["cancel0.stdio"]!), "never aborted 1.10.0-1.30.0, aborted 2.3.0");
  // the same loop seen by fan-out and by the probe a user runs (serve --once)
  assert.is(rangesText(data.ranges["fanOut.stdio"]!), "one at a time 1.10.0-1.30.0, several at once 2.3.0");
  assert.is(rangesText(data.ranges["probe.stdio"]!), "serial 1.10.0-1.30.0, concurrent 2.3.0");
});

test("the probe and fan-out rows read real evidence, and corrupted copies read otherwise", async () => {
  await ran();
  const read = (release: string, row: "probe" | "fanOut") => JSON.parse(readFileSync(join(out, "history", `py-${release}.${row}.stdio.json`), "utf8")) as SessionEvidence;
  const probe = BEHAVIOURS.find((b) => b.id === "probe")!;
  const fanOut = BEHAVIOURS.find((b) => b.id === "fanOut")!;
  // the server's own verdict in its reply: changed on the wire, the cell follows it; gone, the cell is not run
  const serial = read("1.30.0", "probe");
  const reply = serial.wire.find((f) => f.from === "server" && JSON.stringify(f.message).includes('"verdict":"serial"'))!;
  assert.ok(reply, "the probe's reply carries its verdict");
  const flipped = copy(serial);
  flipped.wire[reply.index]!.message = JSON.parse(JSON.stringify(reply.message).replace('"verdict":"serial"', '"verdict":"concurrent"'));
  assert.is(cellOf(flipped, probe, "1.30.0", "py").outcome, "concurrent");
  const unanswered = copy(serial);
  unanswered.wire = unanswered.wire.filter((f) => f.index !== reply.index);
  assert.equal(cellOf(unanswered, probe, "1.30.0", "py"), { release: "1.30.0", outcome: "not run", detail: "probe_receive_loop was never answered" });
  // fan-out: the 2.3.0 callbacks' overlap removed (each left before the next entered) reads one at a time
  const several = read("2.3.0", "fanOut");
  assert.is(cellOf(several, fanOut, "2.3.0", "py").outcome, "several at once");
  const serialised = copy(several);
  const isCallback = (e: SessionEvidence["events"][number]) => e.side === "client" && (e.kind === "callback.entered" || e.kind === "callback.left");
  const leftOf = new Map(serialised.events.filter((e) => isCallback(e) && e.kind === "callback.left").map((e) => [e.id, e]));
  serialised.events = serialised.events.flatMap((e) => (!isCallback(e) ? [e] : e.kind === "callback.entered" ? [e, leftOf.get(e.id)!] : []));
  assert.is(cellOf(serialised, fanOut, "2.3.0", "py").outcome, "one at a time");
});

test("a boundary moved in the expectation fails, naming the release that differs", async () => {
  const data = await ran();
  const expected = loadExpectedHistory("py")!;
  const moved: ExpectedHistory = structuredClone(expected);
  const ranges = moved.behaviours["nested.stdio"]!.ranges;
  ranges.find((r) => r.outcome === "deadlocks")!.to = "1.29.1";
  ranges.find((r) => r.outcome === "completes")!.from = "1.30.0";
  const differs = historyDifferences(data.rows, moved);
  assert.equal(differs.map((d) => `${d.behaviour} ${d.release} ${d.expected}`), ["nested.stdio 1.30.0 completes"]);
  // a release no range holds differs too
  const cut: ExpectedHistory = structuredClone(expected);
  cut.behaviours["rootsNested.stdio"]!.ranges = cut.behaviours["rootsNested.stdio"]!.ranges.filter((r) => r.outcome !== "completes");
  assert.equal(historyDifferences(data.rows, cut).map((d) => `${d.release} ${d.expected}`), ["2.3.0 no expected range"]);
});

test("over http, 1.8.0 and 1.8.1: a sampling answer during a call deadlocks, then completes; every cell as expected", async () => {
  const data = await ranHttp();
  assert.equal(data.differences, [], JSON.stringify(data.differences));
  assert.is(rangesText(data.ranges["samplingAnswer.http"]!), "deadlocks 1.8.0, completes 1.8.1");
  for (const id of ["samplingNested.http", "rootsNested.http"]) assert.is(rangesText(data.ranges[id]!), "hangs 1.8.0, deadlocks 1.8.1", id);
  assert.is(rangesText(data.ranges["nested.http"]!), "n/a 1.8.0-1.8.1");
  // the boundary moved one release on in the expectation: 1.8.1 differs, named
  const moved: ExpectedHistory = structuredClone(loadExpectedHistory("py")!);
  const ranges = moved.behaviours["samplingAnswer.http"]!.ranges;
  ranges.find((r) => r.outcome === "deadlocks")!.to = "1.8.1";
  ranges.find((r) => r.outcome === "completes")!.from = "1.8.2";
  assert.equal(historyDifferences(data.rows, moved).map((d) => `${d.behaviour} ${d.release} ${d.expected}`), ["samplingAnswer.http 1.8.1 deadlocks"]);
});

test("over http, corrupted 1.8.1 evidence: the answer moved after the call's result, or gone, reads as deadlocks", async () => {
  await ranHttp();
  const run = JSON.parse(readFileSync(join(out, "history", "py-1.8.1.samplingAnswer.http.json"), "utf8")) as SessionEvidence;
  assert.is(answerCell(run, "sampling/createMessage").outcome, "completes");
  const asked = run.wire.find((f) => f.from === "server" && f.label.method === "sampling/createMessage")!;
  const answer = run.wire.find((f) => f.from === "client" && f.label.id === asked.label.id && f.label.frameType === "result")!;
  const late = structuredClone(run);
  const moved = late.wire.splice(answer.index, 1)[0]!;
  late.wire.push(moved);
  late.wire.forEach((f, i) => (f.index = i));
  assert.equal(answerCell(late, "sampling/createMessage"), { outcome: "deadlocks", detail: "the callback answered, but its answer reached the wire only after the call's result (the server had given up)" });
  const gone = structuredClone(run);
  gone.wire = gone.wire.filter((f) => f.index !== answer.index);
  assert.is(answerCell(gone, "sampling/createMessage").detail, "the callback answered, but its answer never reached the wire");
});

test("the history adapter's API table is checked against the installed SDK: a row moved past 1.30.0 is refused", () => {
  const probe = (corrupt: string) => spawnSync(PY130_ENV.python, ["-B", "-c", [
    "import sys; sys.path.insert(0, 'lab/peers/py1'); import history as h",
    corrupt,
    "print(h.api_mismatch())",
  ].join("\n")], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  assert.is(probe("").stdout.trim(), "None");
  const moved = probe("h.API = h.API[:-1] + (((1, 31, 0), 'ClientSession', 'elicitation_callback'),)");
  assert.is(moved.stdout.trim(), "the API table disagrees with mcp 1.30.0: elicitation_callback (table: from 1.31.0; installed: present)", moved.stderr);
});

test("--versions: both ends included, either may be left out; nothing matched or a bad shape is a usage error", () => {
  const all = ["1.9.4", "1.10.0", "1.30.0", "2.0.0"];
  assert.equal(pickReleases(all, "1.10.0..1.30.0"), ["1.10.0", "1.30.0"]);
  assert.equal(pickReleases(all, "2.0.0.."), ["2.0.0"]);
  assert.equal(pickReleases(all, "..1.9.4"), ["1.9.4"]);
  assert.throws(() => pickReleases(all, "3.0.0..3.1.0"), /matches no release of mcp/);
  assert.throws(() => pickReleases(all, "latest"), /takes A\.\.B/);
});

test("bad input is one line and exit 2: a client with no history, --versions matching nothing, no package index", async () => {
  // a client peer with no history source (lab/peers/history-sources.ts): asked here, so that a source added for it fails this
  const without = CLIENT_PEERS.map((p) => p.name).find((n) => !HISTORY_SOURCES.some((h) => h.sdk === n));
  assert.ok(without, "some client peer has no history");
  const cli = runCli(["history", "--client", without!]);
  assert.is(cli.code, 2);
  assert.is(cli.stderr.trim().split("\n").length, 1, cli.stderr);
  assert.match(cli.stderr, new RegExp(`client '${without}' has no history`));
  const none = await runMain(["history", "--client", "py", "--versions", "9.0.0..9.1.0"]);
  assert.is(none.code, 2);
  assert.match(none.stderr, /matches no release of mcp|no package index/);
  const saved = process.env.PIP_INDEX_URL;
  process.env.PIP_INDEX_URL = "http://127.0.0.1:9/simple"; // a port nothing listens on: an index of its own, never cached
  try {
    const r = await runMain(["history", "--client", "py"]);
    assert.is(r.code, 2);
    assert.is(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, /no package index: pip index versions mcp could not reach http:\/\/127\.0\.0\.1:9\/simple/);
  } finally {
    if (saved === undefined) delete process.env.PIP_INDEX_URL;
    else process.env.PIP_INDEX_URL = saved;
  }
});

test("a cell still slow on its last attempt is inconclusive, never a word the card would claim (a real run, corrupted)", async () => {
  const behaviour = BEHAVIOURS.find((b) => b.id === "samplingNested")!;
  const real = await memoryRun(behaviour.scenario, "sdk");
  assert.is(cellOf(real, behaviour, "1.0.0", "ts1").outcome, "completes");
  // as on a busy machine: the nested request failed at its limit and its reply came only after the callback gave up
  const slow = copy(real);
  const { reply } = nestedOutcome(slow, "sampling/createMessage")!;
  const ok = slow.events.find((e) => e.kind === "nested.ok")!;
  Object.assign(ok, { kind: "nested.failed", detail: { code: -32001, message: "Request timed out" } });
  const left = slow.events.find((e) => e.kind === "callback.left")!;
  reply!.t = left.t + 1;
  const cell = cellOf({ ...slow, earlierAttempts: [{ why: "slow", evidence: slow }, { why: "slow", evidence: slow }] }, behaviour, "1.0.0", "ts1");
  assert.is(cell.outcome, "inconclusive");
  assert.match(cell.detail, /^slow in each of 3 attempts: /);
});

test.run();
