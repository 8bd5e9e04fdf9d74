// The rust-mcp-sdk peer (the rust-mcp-sdk crate 1.1.0, not rmcp; lab/peers/rust-mcp-sdk/): ONE real nested
// run over stdio against ts1, shared by the tests here. Its client runtime awaits each request handler in
// the one task that also routes replies (client_runtime.rs:191-254, :304-345), so the nested tools/list
// waits until the transport's own limit (-32001) with its reply unread; the serial model tells the same
// story with each difference named. The expectation and the comparison each reject the run corrupted.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { compareModelWithReal, storyFacts } from "../lab/check/model-vs-real.js";
import { replyTo, resultsOf } from "../lab/check/verify.js";
import type { WireFrame } from "../lab/history/timeline.js";
import { waitEnd } from "../lab/check/wait-end.js";
import { RUST_MCP_SDK_CLIENT } from "../lab/peers/rust-mcp-sdk/index.js";
import { failedAgainst, failuresOf, movedAfter, nestedRun } from "./support/nested-peer.js";
import { copy, memoryRun } from "./support/runs.js";
import { needs } from "./support/needs.js";

/** a test that needs the cargo build (npm run setup): without it, a named skip (under CI=true, a failure) */
const rustTest = needs(RUST_MCP_SDK_CLIENT);
const run = () => nestedRun(RUST_MCP_SDK_CLIENT);
/** the reply to the nested tools/list: the client's first tools/list after the first elicitation/create */
function nestedReply(wire: WireFrame[]): WireFrame {
  const elicit = wire.find((f) => f.from === "server" && f.label.method === "elicitation/create")!;
  const nested = wire.find((f) => f.index > elicit.index && f.from === "client" && f.label.method === "tools/list")!;
  return replyTo(wire, nested)!;
}

rustTest("rust-mcp-sdk -> ts1 (nested, stdio): passes expected/nested.sdk.rust-mcp-sdk.json; the wait ends at the SDK's own limit, -32001, nothing cancelled", async () => {
  const r = await run();
  assert.equal(failuresOf(r), []);
  assert.is(r.fault, undefined);
  assert.equal(resultsOf(r.events), { first: { status: "cancelled", computed: false, value: null }, recovery: { status: "calculated", computed: true, value: 21 } });
  const failed = r.events.find((e) => e.kind === "nested.failed")!;
  assert.equal([failed.detail?.type, failed.detail?.code, failed.detail?.timeoutMs], ["SdkError", -32001, 500]);
  const sent = r.events.find((e) => e.kind === "nested.sent");
  assert.equal(
    (({ by, error, configuredMs }) => ({ by, error, configuredMs }))(waitEnd(failed, sent, r.wire)!),
    { by: "sdk", error: "SdkError -32001", configuredMs: 500 },
  );
  // the reply is on the wire before the wait ended; the client takes it only after its callback answered
  const reply = nestedReply(r.wire);
  assert.ok(reply.t < failed.t, "the nested reply arrived before the SDK's limit");
  assert.not.ok(r.wire.some((f) => f.label.method === "notifications/cancelled"));
});

rustTest("rust-mcp-sdk: the expectation rejects the real run with the nested request passed, or the callback leaving before it failed", async () => {
  const r = await run();
  assert.equal(failedAgainst("rust-mcp-sdk", r), [], "the real run itself must pass");
  const passed = copy(r);
  passed.events = passed.events.map((e) => (e.kind === "nested.failed" ? { ...e, kind: "nested.ok" as const, detail: undefined } : e));
  assert.ok(failedAgainst("rust-mcp-sdk", passed).includes("nested requests"), "a nested request that passed was accepted");
  const early = movedAfter(r, "nested.failed", (e) => e.kind === "callback.left" && e.detail?.call === "first");
  assert.ok(failedAgainst("rust-mcp-sdk", early).some((c) => c.startsWith("order: the callback gives up only after the nested request failed")), "a callback that left before its nested request failed was accepted");
});

rustTest("model-vs-rust-mcp-sdk: the serial model tells the real run's story; only the courtesy cancel and the late reply's telling differ, each with its reason", async () => {
  const model = storyFacts(await memoryRun("nested", "serial"));
  const real = storyFacts(await run());
  assert.equal([real.errorCode, real.lateReply, real.replyReadAfterAnswer, real.cancelNotice], [-32001, "dropped silently", true, false]);
  const verdict = compareModelWithReal(model, real, "model-vs-rust-mcp-sdk");
  assert.ok(verdict.ok, JSON.stringify(verdict.facts, null, 2));
  assert.equal(verdict.facts.filter((f) => !f.same).map((f) => f.fact), ["cancelNotice", "lateReply", "clientFrames"]);
  // corrupted: the late reply read before the callback answered (a loop that is not serial) has no reason
  const r = copy(await run());
  const answered = r.events.find((e) => e.kind === "callback.left" && e.detail?.call === "first")!;
  const reply = nestedReply(r.wire);
  const read = r.events.find((e) => e.kind === "frame.dispatched" && e.frame === reply.index)!;
  [read.seq, answered.seq] = [answered.seq, read.seq];
  const bad = compareModelWithReal(model, storyFacts(r), "model-vs-rust-mcp-sdk");
  assert.not.ok(bad.ok);
  assert.equal(bad.facts.filter((f) => !f.same && !f.allowed).map((f) => f.fact), ["replyReadAfterAnswer"]);
});

test.run();
