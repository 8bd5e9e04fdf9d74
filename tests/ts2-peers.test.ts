// The TypeScript SDK v2 peers (lab/peers/ts2): real v2 Client and v2 server runs, in memory over
// the lab's linked pair and over a real stdio child. Every expected value is written by hand.
import { appendFileSync } from "node:fs";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ensureTs2ChildBuilt } from "../lab/peers/ts2/build.js";
import { ts1ClientRun, ts2ClientRun, type RunRecord } from "../lab/demos/runs.js";
import { fanOutPlan, fixedPlan, nestedPlan, singleCallPlan } from "../lab/demos/plans.js";
import { sdkStdioRun } from "../lab/demos/sdk-stdio.js";
import nested from "../scenarios/nested.js";
import { CHILD_PID_LOG } from "./support/child-pids.js";

const CALCULATED = { status: "calculated", computed: true, value: 21 };
const CALCULATED_1_ROUND = { ...CALCULATED, rounds: 1 };
const requests = (run: RunRecord) => run.summary.serverToClientRequests;
const kinds = (run: RunRecord, kind: string) => run.events.filter((e) => e.kind === kind);

test("2025-11-25, v2 <-> v2: calculate pushes elicitation/create, the nested tools/list is answered", async () => {
  const run = await ts2ClientRun(nestedPlan("calculate"), "ts2", "legacy");
  assert.is(run.protocolVersion, "2025-11-25");
  assert.equal(run.summary.results, { first: CALCULATED, recovery: CALCULATED });
  assert.equal(requests(run), { "elicitation/create": 2 });
  assert.is(kinds(run, "nested.ok").length, 1);
});

test("2025-11-25: fan_out runs its 8 callbacks at once; calculate_input goes through the legacy shim", async () => {
  const fan = await ts2ClientRun(fanOutPlan("calculate_input"), "ts2", "legacy");
  assert.equal(fan.summary.results.first, { status: "all_answered", requests: 8, accepted: 8 });
  assert.is(fan.summary.peakCallbacks, 8);
  assert.equal(requests(fan), { "elicitation/create": 9 });
  assert.equal(fan.summary.results.recovery, CALCULATED_1_ROUND);
});

test("2026-07-28 (auto and pinned): input_required rounds, zero server-to-client requests", async () => {
  for (const negotiation of ["auto", "2026-07-28"] as const) {
    const run = await ts2ClientRun(nestedPlan("calculate_input"), "ts2", negotiation);
    assert.is(run.protocolVersion, "2026-07-28");
    assert.equal(run.summary.results, { first: CALCULATED_1_ROUND, recovery: CALCULATED_1_ROUND });
    assert.equal(requests(run), {});
    const rounds = run.events.filter((e) => e.kind.startsWith("round.")).map((e) => [e.kind, e.detail?.call, e.detail?.round, e.detail?.keys]);
    assert.equal(rounds, [
      ["round.input_required", "first", 1, ["form"]],
      ["round.answered", "first", 1, ["form"]],
      ["round.input_required", "recovery", 1, ["form"]],
      ["round.answered", "recovery", 1, ["form"]],
    ]);
    // The retried tools/call carries the answer and the echoed requestState.
    const retry = run.wire.find((f) => (f.message as { params?: { inputResponses?: unknown } }).params?.inputResponses !== undefined);
    assert.equal((retry?.message as { params: Record<string, unknown> }).params.requestState, "1");
  }
});

test("2026-07-28 fan_out: one round of 8 input requests, answered concurrently", async () => {
  const run = await ts2ClientRun(fanOutPlan("calculate_input"), "ts2", "auto");
  assert.equal(run.summary.results.first, { status: "all_answered", requests: 8, accepted: 8 });
  assert.is(run.summary.peakCallbacks, 8);
  assert.equal(requests(run), {});
});

test("elicitInput under a 2026-07-28 client fails locally (raw request); validated calculate asks by input_required instead", async () => {
  const raw = await ts2ClientRun({ ...fixedPlan("calculate"), calls: fixedPlan("calculate").calls.map((c) => ({ ...c, args: { policy: "raw" } })) }, "ts2", "auto");
  assert.equal((raw.summary.results.first as { status?: unknown; sdkCode?: unknown }).sdkCode, "METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION");
  assert.equal(requests(raw), {});
  const run = await ts2ClientRun(fixedPlan("calculate"), "ts2", "auto");
  assert.equal(run.summary.results.first, { status: "calculated", computed: true, value: 21 });
  assert.equal(requests(run), {});
});

test("pinned 2026-07-28 against the ts1 server: ERA_NEGOTIATION_FAILED, no session", async () => {
  const run = await ts2ClientRun(fixedPlan("calculate"), "ts1", "2026-07-28");
  assert.is(run.protocolVersion, undefined);
  assert.match(run.errors.join(" "), /Version negotiation failed/);
  const failed = kinds(run, "note")[0]?.detail?.sessionFailed as { sdkCode?: string } | undefined;
  assert.is(failed?.sdkCode, "ERA_NEGOTIATION_FAILED");
});

test("v2 client auto -> ts1 server falls back to 2025-11-25; ts1 client -> v2 server works", async () => {
  const v2 = await ts2ClientRun(nestedPlan("calculate"), "ts1", "auto");
  assert.is(v2.protocolVersion, "2025-11-25");
  assert.equal(v2.summary.results, { first: CALCULATED, recovery: CALCULATED });
  const v1 = await ts1ClientRun(nested);
  assert.is(v1.protocolVersion, "2025-11-25");
  assert.equal(v1.summary.results, { first: CALCULATED, recovery: CALCULATED });
});

test("endless_input: the client's round cap (10) on 2026-07-28, the server shim's (8) on 2025-11-25; both sessions recover", async () => {
  const modern = await ts2ClientRun(singleCallPlan("endless", "endless_input"), "ts2", "auto");
  assert.equal((modern.summary.results.first as { sdkCode?: string }).sdkCode, "INPUT_REQUIRED_ROUNDS_EXCEEDED");
  assert.is(kinds(modern, "round.answered").filter((e) => e.detail?.call === "first").length, 10);
  assert.equal(modern.summary.results.recovery, CALCULATED_1_ROUND);
  const legacy = await ts2ClientRun(singleCallPlan("endless", "endless_input"), "ts2", "legacy");
  assert.match(String((legacy.summary.results.first as { text?: string }).text), /after 8 rounds/);
  assert.equal(legacy.summary.results.recovery, CALCULATED_1_ROUND);
});

test("malformed_input: the server refuses a non-request entry (-32603); the client refuses bad params (-32602)", async () => {
  const entry = await ts2ClientRun(singleCallPlan("malformed", "malformed_input", { kind: "entry" }), "ts2", "auto");
  assert.is((entry.summary.results.first as { code?: number }).code, -32603);
  const params = await ts2ClientRun(singleCallPlan("malformed", "malformed_input", { kind: "params" }), "ts2", "auto");
  assert.is((params.summary.results.first as { code?: number }).code, -32602);
  assert.equal(params.summary.results.recovery, CALCULATED_1_ROUND);
});

test("stdio: the SDK transport spawns the v2 child once in legacy mode, twice in auto (probe sibling)", async () => {
  await ensureTs2ChildBuilt();
  for (const [negotiation, spawns, version] of [["legacy", 1, "2025-11-25"], ["auto", 2, "2026-07-28"]] as const) {
    const run = await sdkStdioRun(fixedPlan("calculate_input"), negotiation);
    for (const pid of run.pids) appendFileSync(CHILD_PID_LOG, `${pid}\n`); // for zz-no-child-left
    assert.is(run.outcome.protocolVersion, version);
    assert.is(run.pids.length, spawns);
    assert.equal(run.leftAlive, []);
    assert.equal(run.summary.results, { first: CALCULATED_1_ROUND, recovery: CALCULATED_1_ROUND });
  }
});

test.run();
