// Wait-for detection: under the serial model, a reply queued behind the very request that
// waits for it is a cycle, recorded the moment the reply is queued.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ListToolsResultSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { VALID_ANSWER } from "../lab/plan/form.js";
import { openMemoryTransport } from "../lab/transports/memory.js";
import { DEADLOCK_ERROR_CODE, ReceiveLoop } from "../lab/history/receive-loop.js";
import { ACCEPT_VALID, reentrancyScenario, type Scenario } from "../lab/plan/scenario.js";
import { runSession } from "../lab/session/session.js";
import { Recorder } from "../lab/history/timeline.js";
import { SCENARIOS } from "../scenarios/index.js";
import { NESTED_TIMEOUT_MS } from "../scenarios/nested.js";
import { memoryRun } from "./support/runs.js";

test("nested under serial: one cycle, naming both requests, recorded right when the reply is queued", async () => {
  const run = await memoryRun("nested", "serial");
  const cycles = run.events.filter((e) => e.kind === "deadlock");
  assert.is(cycles.length, 1);
  const cycle = cycles[0]!;
  const nestedRequest = run.events.filter((e) => e.kind === "frame.sent" && e.method === "tools/list" && e.frameType === "request")[1]!;
  assert.equal(cycle.detail?.holder, { id: 0, method: "elicitation/create" });
  assert.equal(cycle.detail?.waiting, { id: nestedRequest.id, method: "tools/list" });
  const queued = run.events[cycle.seq - 1]!;
  assert.is(queued.kind, "frame.arrived");
  assert.is(queued.id, nestedRequest.id);
  assert.is(queued.frameType, "result");
});

for (const scenario of SCENARIOS) {
  test(`no cycle is ever reported under sdk: ${scenario.name}`, async () => {
    const run = await memoryRun(scenario.name, "sdk");
    assert.is(run.events.filter((e) => e.kind === "deadlock").length, 0);
  });
}

for (const name of ["liveness", "fan-out", "prefetch"]) {
  test(`frames held behind a request but unrelated to it are not a cycle: ${name} under serial`, async () => {
    const run = await memoryRun(name, "serial");
    assert.is(run.events.filter((e) => e.kind === "deadlock").length, 0);
  });
}

const viaHandlerContext: Scenario = {
  ...reentrancyScenario("nested-extra", "nested tools/list sent through the handler's context", ACCEPT_VALID),
};
// A callback in code (ts1 only): the data vocabulary has no "send through the handler's context".
viaHandlerContext.calls[0] = {
  label: "first",
  code: async (ctx) => {
    try {
      await ctx.nested("tools/list", () => ctx.extra.sendRequest({ method: "tools/list" }, ListToolsResultSchema, { timeout: NESTED_TIMEOUT_MS }));
      return { action: "accept", content: { ...VALID_ANSWER } };
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      return { action: "cancel" };
    }
  },
};

for (const onDeadlock of ["wait", "break"] as const) {
  test(`a callback that sends through extra.sendRequest is caught too (${onDeadlock})`, async () => {
    const run = await runSession(viaHandlerContext, openMemoryTransport, "memory", { loop: "serial", onDeadlock });
    assert.is(run.events.filter((e) => e.kind === "deadlock").length, 1);
    const failed = run.events.find((e) => e.kind === "nested.failed");
    assert.is(failed?.detail?.code, onDeadlock === "break" ? DEADLOCK_ERROR_CODE : -32001);
  });
}

test("break fails the nested request at detection, and sends nothing on the wire for it", async () => {
  const run = await memoryRun("nested", "serial", "break");
  const cycle = run.events.find((e) => e.kind === "deadlock")!;
  const failed = run.events.find((e) => e.kind === "nested.failed")!;
  assert.ok(failed.seq > cycle.seq);
  assert.is(failed.detail?.code, DEADLOCK_ERROR_CODE);
  assert.match(String(failed.detail?.message), "elicitation/create #0");
  const errorsOnWire = run.wire.filter((f) => "error" in f.message);
  assert.is(errorsOnWire.length, 0);
});

test("a reply to a request sent before the holder took the loop is held, but is not a cycle", () => {
  const recorder = new Recorder();
  const loop = new ReceiveLoop({ side: "client", loop: "serial", recorder });
  const delivered: JSONRPCMessage[] = [];
  loop.deliver = (m) => delivered.push(m);
  const send = (m: JSONRPCMessage) => {
    const { label } = recorder.sent("client", m);
    loop.noteSent(m, label);
  };
  const arrive = (m: JSONRPCMessage) => {
    const { frame, label } = recorder.received("server", m);
    loop.arrive(m, label, frame);
  };
  return (async () => {
    send({ jsonrpc: "2.0", id: 5, method: "tools/list" });
    arrive({ jsonrpc: "2.0", id: 0, method: "elicitation/create", params: {} });
    await Promise.resolve();
    arrive({ jsonrpc: "2.0", id: 5, result: { tools: [] } });
    await Promise.resolve();
    assert.is(delivered.length, 1, "the reply waits behind the holder");
    assert.is(recorder.events.filter((e) => e.kind === "deadlock").length, 0);
    send({ jsonrpc: "2.0", id: 0, result: { action: "cancel" } });
    await new Promise((r) => setImmediate(r));
    assert.is(delivered.length, 2, "released in arrival order once the holder is answered");
  })();
});

test.run();
