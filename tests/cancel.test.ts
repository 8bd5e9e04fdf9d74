// Cancellation across the callback (issue #18): the id-0 difference in real runs, the probe's
// "after a ping" in a fresh session, what the server does for a cancelled call, what the lab's
// loop says about a cancellation it hands on, and corrupted copies of real evidence rejected.
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { withdrawAbortsCell } from "../lab/check/card-cancel.js";
import { verify } from "../lab/check/verify.js";
import { ReceiveLoop } from "../lab/history/receive-loop.js";
import { Recorder, type TimelineEvent } from "../lab/history/timeline.js";
import { VALID_ANSWER } from "../lab/plan/form.js";
import { FORM_CAPABILITY, type Scenario } from "../lab/plan/scenario.js";
import { runSession } from "../lab/session/session.js";
import { openMemoryTransport } from "../lab/transports/memory.js";
import { loadExpectation } from "../lab/check/expectations.js";
import { PY_SERVER } from "../lab/peers/py/index.js";
import { TS2_SERVER } from "../lab/peers/ts2/index.js";
import { TRANSPORTS } from "../lab/transports/index.js";
import { findScenario } from "../scenarios/index.js";
import { copy, expectation, memoryRun } from "./support/runs.js";
import { needs } from "./support/needs.js";

const failedChecks = (run: Parameters<typeof verify>[0], scenario: string, loop: "sdk" | "serial") =>
  verify(run, expectation(scenario, loop)).filter((v) => !v.ok).map((v) => v.check);

/** Removes events (renumbering seq), as if they had never been recorded. */
const without = (events: TimelineEvent[], drop: (e: TimelineEvent) => boolean) => events.filter((e) => !drop(e)).map((e, i) => ({ ...e, seq: i }));

// The three card rows for ts1 against the expected cards: tests/card.test.ts.

test("the id-0 difference: only the form that is not the server's request #0 aborts its callback (sdk)", async () => {
  const run = await memoryRun("server-withdraws", "sdk");
  const forms = run.wire.filter((f) => f.from === "server" && f.label.method === "elicitation/create");
  assert.equal(forms.map((f) => f.label.id), [0, 1, 2]);
  const received = run.events.filter((e) => e.side === "client" && e.kind === "cancel.received");
  assert.equal(received.map((e) => [e.id, e.detail?.handler]), [[0, "running"], [1, "running"]]);
  assert.equal(run.events.filter((e) => e.kind === "callback.aborted").map((e) => e.id), [1]);
  // the answer to #0 went out; no answer to #1 ever did
  const answers = run.wire.filter((f) => f.from === "client" && f.label.frameType === "result" && f.label.method === "elicitation/create");
  assert.equal(answers.map((f) => f.label.id), [0, 2]);
});

test("the card row rejects evidence whose abort was removed", async () => {
  const run = copy(await memoryRun("server-withdraws", "sdk"));
  run.events = without(run.events, (e) => e.kind === "callback.aborted");
  assert.is(withdrawAbortsCell(run).value, "first request: not aborted (ignored while it ran) · later request: not aborted (ignored while it ran)");
  assert.ok(failedChecks(run, "server-withdraws", "sdk").includes("client events"));
});

test("the probe: after a ping has used id 0 in a fresh session, the withdrawal of #1 aborts the callback (ts1, sdk)", async () => {
  const probe: Scenario = {
    name: "withdraw-after-ping",
    summary: "the server pings first, then withdraws its form",
    capabilities: FORM_CAPABILITY,
    listToolsFirst: false,
    calls: [{ label: "after-ping", tool: "calculate_limited", args: { limitMs: 250, pingFirst: true }, awaitCallbacks: true, callback: { delayMs: 500, watchAbort: true, answer: { action: "accept", content: { ...VALID_ANSWER } } } }],
  };
  const run = await runSession(probe, openMemoryTransport, "memory", { loop: "sdk" });
  assert.equal(run.errors, []);
  const sent = run.wire.filter((f) => f.from === "server" && f.label.frameType !== "result");
  assert.equal(sent.map((f) => [f.label.method, f.label.id ?? null]), [["ping", 0], ["elicitation/create", 1], ["notifications/cancelled", null]]);
  const aborted = run.events.find((e) => e.kind === "callback.aborted");
  assert.is(aborted?.id, 1);
  assert.ok(aborted!.seq < run.events.find((e) => e.kind === "callback.left")!.seq);
});

test("call-cancelled: the server's tools see their call cancelled; the plain one computes 21 for nobody", async () => {
  const run = await memoryRun("call-cancelled", "sdk");
  const server = run.events.filter((e) => e.side === "server");
  assert.equal(server.filter((e) => e.kind === "tool.aborted").map((e) => [e.id, e.detail?.tool]), [[2, "calculate"], [3, "calculate_linked"]]);
  assert.equal(server.filter((e) => e.kind === "tool.finished").map((e) => [e.id, e.detail?.status]), [[2, "calculated"], [3, "protocol_error"]]);
  // neither cancelled call gets a reply on the wire; the recovery call does
  const replies = run.wire.filter((f) => f.from === "server" && f.label.method === "tools/call");
  assert.equal(replies.map((f) => f.label.id), [4]);
});

test("a missing reply is still refused when nobody withdrew the request", async () => {
  const run = copy(await memoryRun("call-cancelled", "sdk"));
  // the reply to the recovery call's form, dropped; later frames keep their indexes (integrity fails too)
  const i = run.wire.findIndex((f) => f.from === "client" && f.label.frameType === "result" && f.label.method === "elicitation/create" && f.label.id === 2);
  run.wire.splice(i, 1);
  assert.ok(failedChecks(run, "call-cancelled", "sdk").includes("each request has one reply with its id"));
});

test("server events: a stdio run whose child wrote none fails plainly", async () => {
  const run = await memoryRun("server-withdraws", "serial");
  const verdicts = verify({ ...run, serverEvents: null }, expectation("server-withdraws", "serial"));
  assert.equal(verdicts.find((v) => v.check === "server events")?.details, ["the server's own events are not available (its process wrote none)"]);
});

test("the loop says whether a cancelled request was running, answered or never seen", async () => {
  const recorder = new Recorder();
  const loop = new ReceiveLoop({ side: "client", loop: "sdk", recorder });
  loop.deliver = () => undefined;
  const arrive = (m: JSONRPCMessage) => {
    const { frame, label } = recorder.received("server", m);
    loop.arrive(m, label, frame);
  };
  const cancel = (requestId: number) => arrive({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId } });
  arrive({ jsonrpc: "2.0", id: 0, method: "elicitation/create", params: {} });
  arrive({ jsonrpc: "2.0", id: 1, method: "ping" });
  await Promise.resolve();
  const reply = { jsonrpc: "2.0", id: 1, result: {} } as JSONRPCMessage;
  loop.noteSent(reply, recorder.sent("client", reply).label);
  cancel(0);
  cancel(1);
  cancel(7);
  await Promise.resolve();
  const received = recorder.events.filter((e) => e.kind === "cancel.received");
  assert.equal(received.map((e) => [e.id, e.method ?? null, e.detail?.handler]), [[0, "elicitation/create", "running"], [1, "ping", "answered"], [7, null, "unknown"]]);
});

// The other servers, one run each, both started at once (the Python one waits on its child):
// everything else about them runs in .ci/run (lab all), against the same expected files.
needs(PY_SERVER)("other servers: the Python server withdraws even the unlinked form, as #1 (ts1 client, stdio); against the v2 server #0 is still ignored (memory)", async () => {
  const [py, ts2] = await Promise.all([
    runSession(findScenario("call-cancelled")!, TRANSPORTS.stdio!.open, "stdio", { loop: "sdk", server: PY_SERVER }),
    runSession(findScenario("server-withdraws")!, openMemoryTransport, "memory", { loop: "sdk", server: TS2_SERVER }),
  ]);
  const failed = (run: typeof py, scenario: string, server: string) =>
    verify(run, loadExpectation(scenario, "sdk", "wait", undefined, { client: "ts1", server })).filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);
  assert.equal(failed(py, "call-cancelled", "py"), []);
  assert.equal(failed(ts2, "server-withdraws", "ts2"), []);
  const withdrawn = (run: typeof py) => run.wire.filter((f) => f.from === "server" && f.label.method === "notifications/cancelled").map((f) => (f.message as { params?: { requestId?: unknown } }).params?.requestId);
  assert.equal(withdrawn(py), [1, 2]);
  assert.equal(py.events.filter((e) => e.kind === "callback.aborted").map((e) => e.id), [1, 2]);
  assert.equal(withdrawn(ts2), [0, 1]);
  assert.equal(ts2.events.filter((e) => e.kind === "callback.aborted").map((e) => e.id), [1]);
});

test.run();
