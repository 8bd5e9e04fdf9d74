// The spring-ai peer (lab/peers/jvm/spring-ai/SpringAi.java): Spring AI 2.0.0's sync MCP client, built by its own
// auto-configuration, on the Java SDK 2.0.0. TWO real runs against ts1 over stdio, shared by the tests here: `nested`
// (the form callback, an @McpElicitation method, sends tools/list through the client bean and gets its reply) and
// `sampling-fan-out` (five @McpSampling callbacks at once). Spring AI adds no dispatch of its own: each callback runs
// on the Java SDK's boundedElastic thread, so the nested reply is read while the callback waits. Each expectation
// rejects its run's evidence corrupted.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectationFor } from "../lab/check/expectations.js";
import { peakCallbacks, verify } from "../lab/check/verify.js";
import { SPRING_AI_CLIENT } from "../lab/peers/jvm/index.js";
import { TS1_SERVER } from "../lab/peers/ts1/index.js";
import { readVersions } from "../lab/peers/versions.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import { findScenario } from "../scenarios/index.js";
import { copy } from "./support/runs.js";
import { sharedRuns } from "./support/shared-runs.js";
import { needs } from "./support/needs.js";

const springTest = needs([SPRING_AI_CLIENT]);
// one JVM at a time: a Spring context's start is mostly CPU; every claim here is an order or a count
const runs = sharedRuns<RunRecord>(1);
const runOf = (name: string): Promise<RunRecord> =>
  runs.get(name, () => runCase(findScenario(name)!, "sdk", { client: SPRING_AI_CLIENT, server: TS1_SERVER, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((c) => c.runs[0]!));
test.before(() => {
  if (springTest.missing) return;
  for (const name of ["nested", "sampling-fan-out"]) void runOf(name);
  return runs.settled();
});
const failedChecks = (name: string, r: RunRecord, events: RunRecord["events"]) => {
  const { expectation } = expectationFor(name, "sdk", { client: "spring-ai", server: "ts1" })!;
  return verify({ events, wire: r.wire, transport: "stdio" }, expectation).filter((v) => !v.ok).map((v) => v.check);
};

springTest("spring-ai -> ts1 (nested): passes; the nested tools/list returns inside the @McpElicitation callback, and the check rejects it returned after", async () => {
  const r = await runOf("nested");
  assert.equal(failedChecks("nested", r, r.events), [], "the real run itself must pass");
  assert.is(r.fault, undefined);
  const early = copy(r.events);
  const left = early.find((e) => e.kind === "callback.left" && e.detail?.call === "first")!;
  const ok = early.find((e) => e.kind === "nested.ok")!;
  [left.seq, ok.seq] = [ok.seq, left.seq];
  assert.ok(failedChecks("nested", r, early).some((c) => c.startsWith("order: the nested request returns inside the callback")), "a callback that answered before its nested request returned was accepted");
});

springTest("spring-ai declares what the plan declares: its McpClientCustomizer replaces the registry's capabilities (elicitation and sampling for any annotated client)", async () => {
  const r = await runOf("nested");
  const init = r.wire.find((f) => f.from === "client" && f.label.method === "initialize" && f.label.frameType === "request");
  assert.ok(init, "the initialize request is on the wire");
  const caps = (init.message as { params?: { capabilities?: Record<string, unknown> } }).params?.capabilities ?? {};
  // the nested scenario declares the form only; the driver's class also carries an @McpSampling method
  assert.equal(Object.keys(caps).sort(), ["elicitation"]);
});

springTest("spring-ai -> ts1 (sampling-fan-out): passes; the @McpSampling callbacks overlap on the SDK's threads, and the check rejects them made one at a time", async () => {
  const r = await runOf("sampling-fan-out");
  assert.equal(failedChecks("sampling-fan-out", r, r.events), [], "the real run itself must pass");
  assert.ok(peakCallbacks(r.events) >= 2, `peak ${peakCallbacks(r.events)}`);
  // the same run with callback 2 entered only after callback 1 left: a serial client's order
  const serial = copy(r.events);
  const left1 = serial.filter((e) => e.kind === "callback.left")[0]!;
  const entered2 = serial.filter((e) => e.kind === "callback.entered")[1]!;
  [left1.seq, entered2.seq] = [entered2.seq, left1.seq];
  assert.ok(failedChecks("sampling-fan-out", r, serial).length > 0, "five sampling callbacks entered only after the first left was accepted");
});

test.run();
