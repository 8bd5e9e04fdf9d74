// Every scenario under both dispatch models, in memory, against its hand-written expectation.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { DISPATCH_MODELS } from "../lab/history/receive-loop.js";
import { verify } from "../lab/check/verify.js";
import { SCENARIOS } from "../scenarios/index.js";
import { expectation, memoryRun } from "./support/runs.js";

for (const scenario of SCENARIOS) {
  for (const dispatch of DISPATCH_MODELS) {
    test(`${scenario.name} under ${dispatch} meets expected/${scenario.name}.${dispatch}.json`, async () => {
      const run = await memoryRun(scenario.name, dispatch);
      const failed = verify(run, expectation(scenario.name, dispatch)).filter((v) => !v.ok);
      assert.equal(failed, [], failed.map((v) => `${v.check}: ${v.details.join("; ")}`).join("\n"));
    });
  }
}

test("nested under serial with --on-deadlock break meets expected/nested.serial.break.json", async () => {
  const run = await memoryRun("nested", "serial", "break");
  const failed = verify(run, expectation("nested", "serial", "break")).filter((v) => !v.ok);
  assert.equal(failed, [], failed.map((v) => `${v.check}: ${v.details.join("; ")}`).join("\n"));
});

test("serial nested: the held reply really sat in the queue for the whole nested timeout", async () => {
  const run = await memoryRun("nested", "serial");
  const dispatched = run.events.filter((e) => e.side === "client" && e.kind === "frame.dispatched" && e.method === "tools/list" && e.frameType === "result");
  const waited = Number(dispatched[1]?.detail?.waitedMs);
  // The limit is 500 ms; the reply arrived within milliseconds of the request.
  assert.ok(waited >= 450, `held reply waited ${waited} ms`);
});

test("serial nested: the same session recovers (one initialize on the wire, recovery computes)", async () => {
  const run = await memoryRun("nested", "serial");
  const inits = run.wire.filter((f) => (f.message as { method?: string }).method === "initialize");
  assert.is(inits.length, 1);
});

test.run();
