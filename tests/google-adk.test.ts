// google-adk 2.15.0's McpToolset, the MCP client an ADK agent's tools come from, in ONE real nested run per resolution
// over stdio against the ts1 server (McpToolset spawns the lab's relay as its server command): `google-adk` (alone: mcp
// 2.x) completes the nested tools/list it sends with toolset.get_tools(); `google-adk-mcp1` (beside
// langchain-mcp-adapters: mcp 1.30.0) deadlocks until the driver's own limit. Each must pass its hand-written
// expectation; the serial model is checked against the -mcp1 run fact by fact; corrupted copies are rejected.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectationFor } from "../lab/check/expectations.js";
import { compareModelWithReal, storyFacts } from "../lab/check/model-vs-real.js";
import { GOOGLE_ADK_CLIENT, GOOGLE_ADK_MCP1_CLIENT } from "../lab/peers/google-adk/index.js";
import { needs } from "./support/needs.js";
import { clientRequests as requests, failedAgainst as failed, failuresOf as failures, movedAfter, nestedRun as real } from "./support/nested-peer.js";
import { copy, memoryRun } from "./support/runs.js";

const plainTest = needs(GOOGLE_ADK_CLIENT);
const mcp1Test = needs(GOOGLE_ADK_MCP1_CLIENT);

test.before(() => {
  const started: Promise<unknown>[] = [];
  if (!plainTest.missing) started.push(real(GOOGLE_ADK_CLIENT));
  if (!mcp1Test.missing) started.push(real(GOOGLE_ADK_MCP1_CLIENT));
  return Promise.allSettled(started).then(() => undefined);
});

plainTest("google-adk nested against ts1: passes expected/nested.sdk.google-adk.json; initialize, no probe, through the relay", async () => {
  const run = await real(GOOGLE_ADK_CLIENT);
  assert.ok(expectationFor("nested", "sdk", { client: "google-adk", server: "ts1" })!.file.endsWith("nested.sdk.google-adk.json"));
  assert.equal(failures(run), []);
  assert.is(requests(run, "server/discover"), 0);
  assert.is(requests(run, "initialize"), 1);
  assert.ok(run.events.some((e) => e.kind === "nested.ok"));
  assert.not.ok(run.events.some((e) => e.kind === "note" && e.detail?.relay !== undefined), "the toolset spawned its server once");
});

mcp1Test("google-adk-mcp1 nested against ts1: passes its expectation; deadlocked until the driver's own limit, nothing written", async () => {
  const run = await real(GOOGLE_ADK_MCP1_CLIENT);
  assert.ok(expectationFor("nested", "sdk", { client: "google-adk-mcp1", server: "ts1" })!.file.endsWith("nested.sdk.google-adk-mcp1.json"));
  assert.equal(failures(run), []);
  const nested = run.events.find((e) => e.kind === "nested.failed");
  assert.is(nested?.detail?.code, null);
  assert.is((nested?.detail as { type?: string } | undefined)?.type, "TimeoutError");
  assert.is(requests(run, "notifications/cancelled"), 0);
  assert.is(requests(run, "tools/list"), 2, "no retry: a cancellation is not retried by @retry_on_errors");
  assert.ok(storyFacts(run).replyBeforeLimit, "the reply is on the wire before the limit");
});

mcp1Test("model vs real google-adk-mcp1: every difference is named with its reason", async () => {
  const model = storyFacts(await memoryRun("nested", "serial"));
  const verdict = compareModelWithReal(model, storyFacts(await real(GOOGLE_ADK_MCP1_CLIENT)), "model-vs-google-adk-mcp1");
  assert.ok(verdict.ok, JSON.stringify(verdict.facts, null, 2));
  assert.equal(verdict.facts.filter((f) => !f.same).map((f) => f.fact), ["errorCode", "cancelNotice", "lateReply", "replyReadAfterAnswer", "clientFrames"]);
});

plainTest("corrupted google-adk evidence is rejected: a nested reply read after the callback answered", async () => {
  const run = await real(GOOGLE_ADK_CLIENT);
  assert.equal(failed("google-adk", run), [], "the real run itself must pass");
  const late = movedAfter(run, "nested.ok", (e) => e.kind === "callback.left" && e.detail?.call === "first");
  assert.ok(failed("google-adk", late).some((c) => c.startsWith("order: the nested request returns inside the callback")), failed("google-adk", late).join("; "));
});

mcp1Test("corrupted google-adk-mcp1 evidence is rejected: the callback answering before its nested request failed, a second listing", async () => {
  const run = await real(GOOGLE_ADK_MCP1_CLIENT);
  assert.equal(failed("google-adk-mcp1", run), [], "the real run itself must pass");
  const early = movedAfter(run, "nested.failed", (e) => e.kind === "callback.left" && e.detail?.call === "first");
  assert.ok(failed("google-adk-mcp1", early).some((c) => c.startsWith("order: the callback answers cancel only after")), failed("google-adk-mcp1", early).join("; "));
  const retried = copy(run);
  const listing = retried.wire.filter((f) => f.from === "client" && f.label.method === "tools/list").at(-1)!;
  retried.wire.push({ ...copy(listing), index: retried.wire.length });
  assert.ok(failed("google-adk-mcp1", retried).includes("frames on the wire"), failed("google-adk-mcp1", retried).join("; "));
});

test.run();
