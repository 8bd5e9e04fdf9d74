// pydantic-ai-slim 2.78.0's MCPToolset, the MCP client its agents call, in ONE real nested run per resolution over stdio
// against the ts1 server (in the lab's process, so the server's frames are on the timeline): `pydantic-ai` (alone:
// fastmcp 4.x on mcp 2.x) completes the nested tools/list; `pydantic-ai-mcp1` (beside `mcp<2`: fastmcp 3.x on mcp
// 1.30.0) deadlocks until the caller's own limit. Each must pass its hand-written expectation; the serial model is
// checked against the -mcp1 run fact by fact; corrupted copies of the evidence are rejected. Besides them, the
// toolset's default cache_tools=True (not a registered peer): the nested tools/list is served from the cache.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectationFor } from "../lab/check/expectations.js";
import { compareModelWithReal, storyFacts } from "../lab/check/model-vs-real.js";
import { PYDANTIC_AI_CLIENT, PYDANTIC_AI_MCP1_CLIENT, pydanticAiClient } from "../lab/peers/pydantic-ai/index.js";
import { PYDANTIC_AI_MCP1_ENV } from "../lab/peers/python/envs.js";
import { TS1_SERVER } from "../lab/peers/ts1/index.js";
import type { SessionEvidence } from "../lab/plan/session.js";
import { runSession } from "../lab/session/session.js";
import { openProcessTransport } from "../lab/transports/process.js";
import { findScenario } from "../scenarios/index.js";
import { needs } from "./support/needs.js";
import { clientRequests as requests, failedAgainst as failed, failuresOf as failures, nestedRun as real } from "./support/nested-peer.js";
import { copy, memoryRun } from "./support/runs.js";

const plainTest = needs(PYDANTIC_AI_CLIENT);
const mcp1Test = needs(PYDANTIC_AI_MCP1_CLIENT);
const CACHED = pydanticAiClient("pydantic-ai-mcp1-cached", PYDANTIC_AI_MCP1_ENV, "2025-11-25", "the -mcp1 toolset with its default cache_tools=True", true);
let cached: Promise<SessionEvidence> | undefined;
const cachedRun = () => (cached ??= runSession(findScenario("nested")!, openProcessTransport, "stdio", { loop: "sdk", client: CACHED, server: TS1_SERVER }));

test.before(() => {
  const started: Promise<unknown>[] = [];
  if (!plainTest.missing) started.push(real(PYDANTIC_AI_CLIENT));
  if (!mcp1Test.missing) started.push(real(PYDANTIC_AI_MCP1_CLIENT), cachedRun());
  return Promise.allSettled(started).then(() => undefined);
});

plainTest("pydantic-ai nested against ts1: passes expected/nested.sdk.pydantic-ai.json; server/discover refused, then initialize", async () => {
  const run = await real(PYDANTIC_AI_CLIENT);
  assert.ok(expectationFor("nested", "sdk", { client: "pydantic-ai", server: "ts1" })!.file.endsWith("nested.sdk.pydantic-ai.json"));
  assert.equal(failures(run), []);
  assert.is(run.negotiatedProtocol, "2025-11-25");
  assert.is(requests(run, "server/discover"), 1);
  assert.ok(run.events.some((e) => e.kind === "nested.ok"));
});

mcp1Test("pydantic-ai-mcp1 nested against ts1: passes its expectation; deadlocked until the caller's limit, nothing written", async () => {
  const run = await real(PYDANTIC_AI_MCP1_CLIENT);
  assert.equal(failures(run), []);
  const nested = run.events.find((e) => e.kind === "nested.failed");
  assert.is(nested?.detail?.code, null);
  assert.is((nested?.detail as { type?: string } | undefined)?.type, "TimeoutError");
  assert.is(requests(run, "notifications/cancelled"), 0);
  const facts = storyFacts(run);
  assert.ok(facts.replyBeforeLimit, "the reply is on the wire before the limit");
  assert.ok(facts.replyReadAfterAnswer, "and read only after the callback answered");
});

mcp1Test("model vs real pydantic-ai-mcp1: every difference is named with its reason, none of ordering", async () => {
  const model = storyFacts(await memoryRun("nested", "serial"));
  const verdict = compareModelWithReal(model, storyFacts(await real(PYDANTIC_AI_MCP1_CLIENT)), "model-vs-pydantic-ai-mcp1");
  assert.ok(verdict.ok, JSON.stringify(verdict.facts, null, 2));
  assert.equal(verdict.facts.filter((f) => !f.same).map((f) => f.fact), ["errorCode", "cancelNotice", "lateReply", "clientFrames"]);
});

mcp1Test("the default cache_tools=True: the nested tools/list never reaches the wire, so even mcp 1.30.0 completes it", async () => {
  const run = await cachedRun();
  assert.equal(run.errors, []);
  assert.is(requests(run, "tools/list"), 1, "only the listing before the calls");
  assert.is(run.events.filter((e) => e.kind === "nested.ok").length, 1);
  const first = run.events.find((e) => e.kind === "tool.result" && e.detail?.call === "first")?.detail?.result as { value?: number } | undefined;
  assert.is(first?.value, 21, "the first call computes: its callback was not held up");
  assert.not.ok(run.events.some((e) => e.kind === "nested.failed"));
});

plainTest("corrupted pydantic-ai evidence is rejected: a nested reply read after the callback answered, no probe", async () => {
  const run = await real(PYDANTIC_AI_CLIENT);
  assert.equal(failed("pydantic-ai", run), [], "the real run itself must pass");
  const late = copy(run);
  late.events.find((e) => e.kind === "nested.ok")!.t = late.events.find((e) => e.kind === "callback.left" && e.detail?.call === "first")!.t + 0.01;
  late.events.sort((a, b) => a.t - b.t).forEach((e, i) => (e.seq = i));
  assert.ok(failed("pydantic-ai", late).some((c) => c.startsWith("order: the nested request returns inside the callback")), failed("pydantic-ai", late).join("; "));
  const unprobed = copy(run);
  unprobed.wire = unprobed.wire.filter((f) => f.label.method !== "server/discover");
  unprobed.wire.forEach((f, i) => (f.index = i));
  assert.ok(failed("pydantic-ai", unprobed).includes("frames on the wire"), failed("pydantic-ai", unprobed).join("; "));
});

mcp1Test("corrupted pydantic-ai-mcp1 evidence is rejected: the late reply read before the callback answered", async () => {
  const run = await real(PYDANTIC_AI_MCP1_CLIENT);
  assert.equal(failed("pydantic-ai-mcp1", run), [], "the real run itself must pass");
  const early = copy(run);
  early.events.find((e) => e.kind === "note" && e.detail?.lateReply === true)!.t = early.events.find((e) => e.kind === "nested.sent")!.t + 0.01;
  early.events.sort((a, b) => a.t - b.t).forEach((e, i) => (e.seq = i));
  assert.ok(failed("pydantic-ai-mcp1", early).some((c) => c.startsWith("order: the loop reads the nested reply only after")), failed("pydantic-ai-mcp1", early).join("; "));
});

test.run();
