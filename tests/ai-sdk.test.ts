// The Vercel AI SDK's MCP client (@ai-sdk/mcp 2.0.99, under Node 22 in its own process) in ONE real
// run: nested over stdio against the ts1 server in the lab's process. It must pass its hand-written expectation and declare exactly
// the capabilities the plan gives (the client adds nothing, dist/index.js:2403, :2470); corrupted copies of
// this evidence must be rejected; and a plan the public API cannot run is refused in one line.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectationFor } from "../lab/check/expectations.js";
import { verify } from "../lab/check/verify.js";
import { aiSdkRefusal } from "../lab/peers/ai-sdk/client.js";
import { AI_SDK_CLIENT } from "../lab/peers/ai-sdk/index.js";
import { readVersions } from "../lab/peers/versions.js";
import type { SessionPlan } from "../lab/plan/behaviour.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import { runSession } from "../lab/session/session.js";
import { openProcessTransport } from "../lab/transports/process.js";
import { findScenario } from "../scenarios/index.js";
import { copy } from "./support/runs.js";
import { needs } from "./support/needs.js";

// its runs need build/node22 and the install apart (the set-up builds them)
const withAiSdk = needs(AI_SDK_CLIENT);

let shared: Promise<RunRecord> | undefined;
const real = () =>
  (shared ??= runCase(findScenario("nested")!, "sdk", { client: AI_SDK_CLIENT, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((r) => r.runs[0]!));
const failures = (run: RunRecord) => run.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);
const expected = () => expectationFor("nested", "sdk", { client: "ai-sdk", server: "ts1" })!.expectation;
const failed = (run: Pick<RunRecord, "events" | "wire">) => verify({ events: run.events, wire: run.wire, transport: "stdio" }, expected()).filter((v) => !v.ok).map((v) => v.check);

withAiSdk("ai-sdk nested against ts1: passes expected/nested.sdk.ai-sdk.json and declares only the plan's capabilities", async () => {
  const run = await real();
  assert.ok(expectationFor("nested", "sdk", { client: "ai-sdk", server: "ts1" })!.file.endsWith("nested.sdk.ai-sdk.json"));
  assert.equal(failures(run), []);
  const init = run.wire.find((f) => f.label.method === "initialize" && f.from === "client")!.message as unknown as { params: { capabilities: unknown; protocolVersion: string } };
  assert.equal(init.params.capabilities, { elicitation: { form: {} } });
  assert.is(init.params.protocolVersion, "2025-11-25");
});

withAiSdk("corrupted ai-sdk evidence is rejected: a late nested reply, a different answer, a notifications/cancelled", async () => {
  const run = await real();
  assert.equal(failed(run), [], "the real run itself must pass");
  // the nested request returning only after the callback answered (a serial loop's story)
  const late = copy(run);
  late.events.find((e) => e.kind === "nested.ok")!.t = late.events.find((e) => e.kind === "callback.left" && e.detail?.call === "first")!.t + 0.01;
  late.events.sort((a, b) => a.t - b.t).forEach((e, i) => (e.seq = i));
  assert.ok(failed(late).some((c) => c.startsWith("order: the nested request returns inside the callback")), failed(late).join("; "));
  // a callback that answered decline instead of accept
  const declined = copy(run);
  const left = declined.events.find((e) => e.kind === "callback.left" && e.detail?.call === "first")!;
  left.detail = { ...left.detail, action: "decline" };
  assert.ok(failed(declined).includes("callback answers"), failed(declined).join("; "));
  // a notifications/cancelled from the client, which requestOnce() never sends (dist/index.js:2666-2749)
  const told = copy(run);
  const last = told.wire.find((f) => f.from === "client")!;
  told.wire.push({ ...last, index: told.wire.length, message: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 0 } }, label: { ...last.label, method: "notifications/cancelled", frameType: "notification", id: undefined } });
  assert.ok(failed(told).includes("frames on the wire"), failed(told).join("; "));
});

withAiSdk("declared as its type says ({elicitation: {applyDefaults}}), the ts1 server does not read it as form support: no form is sent", async () => {
  // ClientCapabilities puts applyDefaults under elicitation (dist/index.d.ts:140, :166); SDK 1.32.2
  // turns only an empty elicitation into {form: {}} (types.js:335-345), so the server sees no form
  // capability: its calculate tool answers unsupported (lab/peers/ts1/calculate-server.ts), as elicitInput would refuse (server/index.js:351-352).
  const nested = findScenario("nested")!;
  const run = await runSession({ ...nested, capabilities: { elicitation: { applyDefaults: true } } }, openProcessTransport, "stdio", { loop: "sdk", client: AI_SDK_CLIENT });
  assert.equal(run.errors, []);
  const init = run.wire.find((f) => f.label.method === "initialize" && f.from === "client")!.message as unknown as { params: { capabilities: unknown } };
  assert.equal(init.params.capabilities, { elicitation: { applyDefaults: true } });
  assert.not.ok(run.wire.some((f) => f.label.method === "elicitation/create"));
  const statuses = run.events.filter((e) => e.kind === "tool.result").map((e) => (e.detail?.result as { status?: string } | null)?.status);
  assert.equal(statuses, ["unsupported", "unsupported"]);
});

const PLAN: SessionPlan = {
  scenario: "refusals",
  capabilities: { elicitation: { form: {} } },
  listToolsFirst: false,
  callTimeoutMs: 5_000,
  calls: [{ label: "a", tool: "calculate", args: {}, callback: { nested: { method: "tools/list", timeoutMs: 500 }, answer: { action: "accept" } } }],
};

test("a plan the AI SDK client's public API cannot run is refused in one line with its dist line", () => {
  assert.is(aiSdkRefusal(PLAN), undefined);
  const sampling = aiSdkRefusal({ ...PLAN, capabilities: { elicitation: { form: {} }, sampling: {}, experimental: {} } });
  assert.match(sampling ?? "", /^capabilities experimental: .*index\.js:3047-3075/);
  const ping = aiSdkRefusal({ ...PLAN, calls: [{ ...PLAN.calls[0]!, callback: { nested: { method: "ping", timeoutMs: 500 }, answer: { action: "accept" } } }] });
  assert.match(ping ?? "", /^call a: a nested ping: .*index\.d\.ts:1172-1254/);
  for (const line of [sampling, ping]) assert.not.match(line ?? "", /\n/);
});

test.run();
