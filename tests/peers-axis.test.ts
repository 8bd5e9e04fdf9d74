// The peers axis: a new client peer is a driver plus a registry entry. A toy client that is not
// an SDK at all runs prefetch and nested (accept, nested with a limit) from the scenarios' data,
// through the ordinary runner, checkers and renderers, with no edit to any of them.
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


test("every in-process server attaches its SDK to the transport within connect()'s first step (a relayed driver may already be writing)", async () => {
  const { SERVER_PEERS } = await import("../lab/peers/registry.js");
  const { linkedEnds } = await import("../lab/transports/linked.js");
  const { Recorder } = await import("../lab/history/timeline.js");
  for (const peer of SERVER_PEERS.filter((p) => p.inProcess)) {
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
