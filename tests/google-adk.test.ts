// google-adk 2.13.0's McpToolset, the MCP client an ADK agent's tools come from, in ONE real nested run per resolution
// over stdio against the ts1 server (McpToolset spawns the lab's relay as its server command): `google-adk` (alone: mcp
// 2.x) completes the nested tools/list it sends with toolset.get_tools(); `google-adk-mcp1` (beside
// langchain-mcp-adapters: mcp 1.30.0) deadlocks until the driver's own limit. Each must pass its hand-written
// expectation; the serial model is checked against the -mcp1 run fact by fact; corrupted copies are rejected.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectationFor } from "../lab/check/expectations.js";
import { compareModelWithReal, storyFacts } from "../lab/check/model-vs-real.js";
import { verify } from "../lab/check/verify.js";
import { GOOGLE_ADK_CLIENT, GOOGLE_ADK_MCP1_CLIENT } from "../lab/peers/google-adk/index.js";
import { readVersions } from "../lab/peers/versions.js";
import type { ClientPeer } from "../lab/plan/peer.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import { findScenario } from "../scenarios/index.js";
import { needs } from "./support/needs.js";
import { copy, memoryRun } from "./support/runs.js";

const plainTest = needs(GOOGLE_ADK_CLIENT);
const mcp1Test = needs(GOOGLE_ADK_MCP1_CLIENT);
const shared = new Map<string, Promise<RunRecord>>();
const real = (client: ClientPeer): Promise<RunRecord> => {
  const run = shared.get(client.name) ?? runCase(findScenario("nested")!, "sdk", { client, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((r) => r.runs[0]!);
  shared.set(client.name, run);
  return run;
};

const failures = (run: RunRecord) => run.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);
const failed = (client: string, run: Pick<RunRecord, "events" | "wire">) =>
  verify({ events: run.events, wire: run.wire, transport: "stdio" }, expectationFor("nested", "sdk", { client, server: "ts1" })!.expectation).filter((v) => !v.ok).map((v) => v.check);
const requests = (run: Pick<RunRecord, "wire">, method: string) => run.wire.filter((f) => f.from === "client" && f.label.method === method && f.label.frameType === "request").length;
/** moves the first event of `kind` to just after `after`, and renumbers the timeline */
function moveAfter(run: RunRecord, kind: string, after: (e: RunRecord["events"][number]) => boolean): RunRecord {
  const moved = copy(run);
  moved.events.find((e) => e.kind === kind)!.t = moved.events.find(after)!.t + 0.01;
  moved.events.sort((a, b) => a.t - b.t).forEach((e, i) => (e.seq = i));
  return moved;
}

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
  const late = moveAfter(run, "nested.ok", (e) => e.kind === "callback.left" && e.detail?.call === "first");
  assert.ok(failed("google-adk", late).some((c) => c.startsWith("order: the nested request returns inside the callback")), failed("google-adk", late).join("; "));
});

mcp1Test("corrupted google-adk-mcp1 evidence is rejected: the callback answering before its nested request failed, a second listing", async () => {
  const run = await real(GOOGLE_ADK_MCP1_CLIENT);
  assert.equal(failed("google-adk-mcp1", run), [], "the real run itself must pass");
  const early = moveAfter(run, "nested.failed", (e) => e.kind === "callback.left" && e.detail?.call === "first");
  assert.ok(failed("google-adk-mcp1", early).some((c) => c.startsWith("order: the callback answers cancel only after")), failed("google-adk-mcp1", early).join("; "));
  const retried = copy(run);
  const listing = retried.wire.filter((f) => f.from === "client" && f.label.method === "tools/list").at(-1)!;
  retried.wire.push({ ...copy(listing), index: retried.wire.length });
  assert.ok(failed("google-adk-mcp1", retried).includes("frames on the wire"), failed("google-adk-mcp1", retried).join("; "));
});

test.run();
