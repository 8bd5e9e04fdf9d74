// semantic-kernel 1.45.0's MCP plugin on mcp 1.30.0, in ONE real run over stdio against the ts1 server: its only
// callback is sampling, so its nested run is sampling-nested (the nested tools/list from inside the kernel service SK's
// sampling callback awaits). It must pass its hand-written expectation: consent given, the request deadlocked until
// the SDK's 0.5 s limit (408), nothing written on expiry, the late reply handed to the message handler; and it
// declares no elicitation. The serial model is checked against it fact by fact; corrupted copies are rejected.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectationFor } from "../lab/check/expectations.js";
import { compareModelWithReal, storyFacts } from "../lab/check/model-vs-real.js";
import { verify } from "../lab/check/verify.js";
import { SEMANTIC_KERNEL_CLIENT } from "../lab/peers/semantic-kernel/index.js";
import { readVersions } from "../lab/peers/versions.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import { findScenario } from "../scenarios/index.js";
import { needs } from "./support/needs.js";
import { copy, memoryRun } from "./support/runs.js";

const skTest = needs(SEMANTIC_KERNEL_CLIENT);
let shared: Promise<RunRecord> | undefined;
const real = (): Promise<RunRecord> =>
  (shared ??= runCase(findScenario("sampling-nested")!, "sdk", { client: SEMANTIC_KERNEL_CLIENT, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((r) => r.runs[0]!));

const expected = () => expectationFor("sampling-nested", "sdk", { client: "semantic-kernel", server: "ts1" })!;
const failed = (run: Pick<RunRecord, "events" | "wire">) =>
  verify({ events: run.events, wire: run.wire, transport: "stdio" }, expected().expectation).filter((v) => !v.ok).map((v) => v.check);
const requests = (run: Pick<RunRecord, "wire">, method: string) => run.wire.filter((f) => f.from === "client" && f.label.method === method && f.label.frameType === "request");

test.before(() => (skTest.missing ? undefined : real().then(() => undefined, () => undefined)));

skTest("semantic-kernel sampling-nested against ts1: passes its expectation; 408 at the SDK's limit, nothing written, declares sampling only", async () => {
  const run = await real();
  assert.ok(expected().file.endsWith("sampling-nested.sdk.semantic-kernel.ts1.json"));
  assert.equal(run.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`), []);
  assert.is(run.events.find((e) => e.kind === "nested.failed")?.detail?.code, 408);
  assert.is(requests(run, "notifications/cancelled").length, 0);
  // the plugin lists tools and prompts itself at connect (connectors/mcp.py:361-364)
  assert.is(requests(run, "prompts/list").length, 1);
  const init = requests(run, "initialize")[0]!.message as unknown as { params: { capabilities: Record<string, unknown> } };
  assert.equal(Object.keys(init.params.capabilities).sort(), ["sampling"]);
});

skTest("model vs real semantic-kernel (sampling-nested): every difference is named with its reason", async () => {
  const sampling = "sampling/createMessage";
  const model = storyFacts(await memoryRun("sampling-nested", "serial"), sampling);
  const verdict = compareModelWithReal(model, storyFacts(await real(), sampling), "model-vs-semantic-kernel");
  assert.ok(verdict.ok, JSON.stringify(verdict.facts, null, 2));
  assert.equal(verdict.facts.filter((f) => !f.same).map((f) => f.fact), ["errorCode", "cancelNotice", "lateReply", "clientFrames"]);
});

skTest("corrupted semantic-kernel evidence is rejected: the callback answering before its nested request failed, a second prompts/list", async () => {
  const run = await real();
  assert.equal(failed(run), [], "the real run itself must pass");
  const early = copy(run);
  const left = early.events.find((e) => e.kind === "callback.left" && e.detail?.call === "first")!;
  early.events.find((e) => e.kind === "nested.failed")!.t = left.t + 0.01;
  early.events.sort((a, b) => a.t - b.t).forEach((e, i) => (e.seq = i));
  assert.ok(failed(early).some((c) => c.startsWith("order: the callback answers only after the nested request failed")), failed(early).join("; "));
  const again = copy(run);
  const prompts = requests(again, "prompts/list")[0]!;
  again.wire.push({ ...copy(prompts), index: again.wire.length });
  assert.ok(failed(again).includes("frames on the wire"), failed(again).join("; "));
});

test.run();
