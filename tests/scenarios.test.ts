// Every scenario under both loop models, in memory, against its hand-written expectation.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { LOOP_MODELS } from "../lab/history/receive-loop.js";
import { verify } from "../lab/check/verify.js";
import { SCENARIOS } from "../scenarios/index.js";
import { expectation, memoryRun, startAllMemoryRuns } from "./support/runs.js";

// this file reads every scenario x model: all started when its tests begin, a few at a time
test.before(startAllMemoryRuns);

for (const scenario of SCENARIOS) {
  for (const loop of LOOP_MODELS) {
    test(`${scenario.name} under ${loop} meets expected/${scenario.name}.${loop}.json`, async () => {
      const run = await memoryRun(scenario.name, loop);
      const failed = verify(run, expectation(scenario.name, loop)).filter((v) => !v.ok);
      assert.equal(failed, [], failed.map((v) => `${v.check}: ${v.details.join("; ")}`).join("\n"));
    });
  }
}

test("nested under serial with --on-deadlock break meets expected/nested.serial.break.json", async () => {
  const run = await memoryRun("nested", "serial", "break");
  const failed = verify(run, expectation("nested", "serial", "break")).filter((v) => !v.ok);
  assert.equal(failed, [], failed.map((v) => `${v.check}: ${v.details.join("; ")}`).join("\n"));
});

test("serial nested: the held reply was already queued when the nested request timed out, and left the queue only after", async () => {
  // Order, not milliseconds: a timer may fire late on a busy machine (and, against a stale loop
  // clock, even a little early), but the reply cannot leave the queue before the holder answers.
  const run = await memoryRun("nested", "serial");
  const nthReply = (kind: string) => run.events.filter((e) => e.side === "client" && e.kind === kind && e.method === "tools/list" && e.frameType === "result")[1]!;
  const arrived = nthReply("frame.arrived");
  const dispatched = nthReply("frame.dispatched");
  const timedOut = run.events.find((e) => e.kind === "nested.failed")!;
  assert.is(timedOut.detail?.code, -32001, "the nested request ended by its own timeout");
  assert.ok(arrived.seq < timedOut.seq, "queued before the timeout");
  assert.ok(timedOut.seq < dispatched.seq, "dispatched after the timeout");
  // what the loop says the reply waited is the time between those two events
  const waited = Number(dispatched.detail?.waitedMs);
  assert.ok(Math.abs(waited - (dispatched.t - arrived.t)) < 0.5, `waitedMs ${waited} vs ${dispatched.t - arrived.t}`);
  assert.ok(waited > timedOut.t - arrived.t, "the wait covers the whole stretch up to the timeout");
});

test("serial nested: the same session recovers (one initialize on the wire, recovery computes)", async () => {
  const run = await memoryRun("nested", "serial");
  const inits = run.wire.filter((f) => (f.message as { method?: string }).method === "initialize");
  assert.is(inits.length, 1);
});

test.run();
