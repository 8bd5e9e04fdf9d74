// The peers axis: a new client peer is a driver plus a registry entry. A toy client that is not
// an SDK at all runs prefetch and nested (accept, nested with a limit) from the scenarios' data,
// through the ordinary runner, checkers and renderers, `all` and the probe table, with no edit to
// any of them.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import { registerClient, findClient } from "../lab/peers/registry.js";
import { runCase } from "../lab/session/pipeline.js";
import { readVersions } from "../lab/peers/versions.js";
import { renderRun } from "../lab/render/report.js";
import { renderSvg } from "../lab/render/svg.js";
import { findScenario } from "../scenarios/index.js";
import { PROJECT_ROOT } from "../lab/paths.js";
import { TOY_CLIENT } from "./support/toy-client.js";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { runMain } from "./support/cli.js";
import { FAN_OUT_N, PROBE_SCENARIO, probeRun } from "./support/probe.js";
import { clientSideProbe } from "../lab/check/probe-timeline.js";
import { resultsOf } from "../lab/check/verify.js";

const EXPECTED = join(PROJECT_ROOT, "tests", "fixtures", "toy-expected");
registerClient(TOY_CLIENT);

for (const [scenario, loop] of [["prefetch", "sdk"], ["nested", "sdk"], ["nested", "serial"]] as const) {
  test(`toy client: ${scenario} under ${loop} passes its hand-written expectation`, async () => {
    const report = await runCase(findScenario(scenario)!, loop, { client: findClient("toy")!, transports: ["memory"], repeat: 1, onDeadlock: "wait", expectedDir: EXPECTED }, readVersions());
    const failed = report.runs.flatMap((r) => r.verdicts.filter((v) => !v.ok));
    assert.equal(failed, [], JSON.stringify(failed, null, 2));
    assert.is(report.column, `${loop}.toy.ts1`);
    const run = report.runs[0]!;
    assert.ok(renderRun(report, run, false).includes("client toy"));
    assert.ok(renderSvg(run).includes("client toy"));
  });
}

test("the toy's nested expectation can fail: the ts1 file does not apply to it", async () => {
  const report = await runCase(findScenario("nested")!, "serial", { client: findClient("toy")!, transports: ["memory"], repeat: 1, onDeadlock: "wait" }, readVersions()).catch((e: Error) => e);
  assert.instance(report, Error);
  assert.match((report as Error).message, /no expectation written for nested under serial with client toy/);
});

test("the toy through `all`, its selection limited to it: its expectation files in a temp --expected folder, every claimed case run and held", () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-toy-"));
  return (async () => {
    cpSync(EXPECTED, join(dir, "expected"), { recursive: true, filter: (f) => !f.includes("/card") });
    const r = await runMain(["all", "--client", "toy", "--server", "ts1", "--transport", "memory", "--repeat", "1", "--expected", join(dir, "expected"), "--out", join(dir, "out"), "--json"]);
    assert.is(r.code, 0, r.stderr);
    const cases = (JSON.parse(r.stdout) as { scenario: string; loop: string; client: string; ok: boolean }[]).map((c) => `${c.scenario}.${c.loop}.${c.client}:${c.ok}`).sort();
    assert.equal(cases, ["nested.sdk.toy:true", "nested.serial.toy:true", "prefetch.sdk.toy:true"]);
    // a wrong hand-written value in one of its files fails `all` (the files are really read)
    const file = join(dir, "expected", "nested.sdk.toy.json");
    const doc = JSON.parse(readFileSync(file, "utf8"));
    doc.results.first.value = 22;
    writeFileSync(file, JSON.stringify(doc));
    const bad = await runMain(["all", "--client", "toy", "--server", "ts1", "--transport", "memory", "--repeat", "1", "--expected", join(dir, "expected"), "--out", join(dir, "out")]);
    assert.is(bad.code, 1, bad.stdout);
  })().finally(() => rmSync(dir, { recursive: true, force: true }));
});

test("the toy through `card`: its one hand-written card in a temp --expected folder, every claimed cell as written; a wrong cell fails", () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-toy-card-"));
  return (async () => {
    cpSync(join(EXPECTED, "card"), join(dir, "expected", "card"), { recursive: true });
    const args = ["card", "--client", "toy", "--server", "ts1", "--loop", "sdk", "--expected", join(dir, "expected"), "--out", join(dir, "out")];
    const r = await runMain(args);
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, "card: 1 of 1 pairings as expected");
    const file = join(dir, "expected", "card", "toy.sdk.ts1.json");
    const card = JSON.parse(readFileSync(file, "utf8"));
    card.cells.withdrawAborts = "first request: not aborted (ignored while it ran) · later request: aborted";
    writeFileSync(file, JSON.stringify(card));
    const bad = await runMain(args);
    assert.is(bad.code, 1, bad.stdout);
    assert.match(bad.stdout, "DIFFERS toy.sdk.ts1 · withdrawAborts");
  })().finally(() => rmSync(dir, { recursive: true, force: true }));
});

// The probe table's rows for the toy: it handles every inbound request at once (a concurrent
// loop), and the serial model the session wraps around any client makes it serial. Their four
// sessions start together when this file's tests begin (tests/support/probe.ts limits how many).
const PROBE_LOOPS = ["sdk", "serial"] as const;
const PROBE_TRANSPORTS = ["memory", "serve"] as const;
test.before(() => {
  const started = PROBE_LOOPS.flatMap((loop) => PROBE_TRANSPORTS.map((transport) => probeRun(PROBE_SCENARIO, TOY_CLIENT, loop, transport)));
  return Promise.allSettled(started).then(() => undefined);
});
for (const [loop, verdict] of [["sdk", "concurrent"], ["serial", "serial"]] as const) {
  for (const transport of ["memory", "serve"] as const) {
    test(`the toy in the probe table: under ${loop}, ${transport}, probe_receive_loop says ${verdict}, and so does the toy's own timeline`, async () => {
      const run = await probeRun(PROBE_SCENARIO, findClient("toy")!, loop, transport);
      assert.equal(run.errors, []);
      const probe = resultsOf(run.events)["loop"] as { verdict: string };
      assert.is(probe.verdict, verdict);
      assert.is(clientSideProbe(run, "loop").loop, verdict);
      assert.is(clientSideProbe(run, "fan-out").peakCallbacks, verdict === "serial" ? 1 : FAN_OUT_N);
    });
  }
}

test("every in-process server attaches its SDK to the transport within connect()'s first step (a relayed driver may already be writing)", async () => {
  const { SERVER_PEERS } = await import("../lab/peers/registry.js");
  const { linkedEnds } = await import("../lab/transports/linked.js");
  const { Recorder } = await import("../lab/history/timeline.js");
  for (const peer of SERVER_PEERS.filter((p) => p.inProcess)) {
    await peer.load?.();
    const recorder = new Recorder();
    const ends = linkedEnds(recorder);
    const server = peer.inProcess!(recorder);
    const connecting = server.connect(ends.server);
    // synchronously after the call: a frame arriving now must find a handler
    assert.ok(ends.server.onmessage !== undefined, `${peer.name}: onmessage is not set when connect() returns its promise`);
    await connecting;
    await server.close();
  }
});

test.run();
