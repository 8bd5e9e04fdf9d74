// fast-agent-mcp 0.2.36 (the newest on Python 3.11) on mcp 1.10.1, in ONE real nested run over stdio against the ts1
// server: its MCPAggregator spawns the lab's relay, declares no elicitation, so the server never asks and both calls
// end unsupported in the same session. It must pass its hand-written expectation; corrupted copies are rejected.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectationFor } from "../lab/check/expectations.js";
import { verify } from "../lab/check/verify.js";
import { FAST_AGENT_CLIENT } from "../lab/peers/fast-agent/index.js";
import { readVersions } from "../lab/peers/versions.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import { findScenario } from "../scenarios/index.js";
import { needs } from "./support/needs.js";
import { copy } from "./support/runs.js";

const faTest = needs(FAST_AGENT_CLIENT);
let shared: Promise<RunRecord> | undefined;
const real = (): Promise<RunRecord> =>
  (shared ??= runCase(findScenario("nested")!, "sdk", { client: FAST_AGENT_CLIENT, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((r) => r.runs[0]!));
const expectation = () => expectationFor("nested", "sdk", { client: "fast-agent", server: "ts1" })!;
const rejected = (run: Pick<RunRecord, "events" | "wire">) =>
  verify({ events: run.events, wire: run.wire, transport: "stdio" }, expectation().expectation).filter((v) => !v.ok).map((v) => v.check);

test.before(() => (faTest.missing ? undefined : real().then(() => undefined, () => undefined)));

faTest("fast-agent nested against ts1: passes expected/nested.sdk.fast-agent.ts1.json; asks 2025-06-18, declares sampling only, through the relay once", async () => {
  const run = await real();
  assert.ok(expectation().file.endsWith("nested.sdk.fast-agent.ts1.json"));
  assert.equal(run.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`), []);
  const init = run.wire.find((f) => f.from === "client" && f.label.method === "initialize")!.message as unknown as { params: { protocolVersion: string; capabilities: object } };
  assert.is(init.params.protocolVersion, "2025-06-18");
  assert.equal(Object.keys(init.params.capabilities), ["sampling"]);
  assert.ok(run.events.some((e) => e.kind === "note" && Array.isArray(e.detail?.notDeclared)), "the driver notes what it could not declare");
  assert.not.ok(run.events.some((e) => e.kind === "note" && e.detail?.relay !== undefined), "the aggregator spawned its server once");
});

faTest("corrupted fast-agent evidence is rejected: a recovery that computed, a second tools/list", async () => {
  const run = await real();
  assert.equal(rejected(run), [], "the real run itself must pass");
  const computed = copy(run);
  const result = computed.events.find((e) => e.kind === "tool.result" && e.detail?.call === "recovery")!;
  result.detail = { ...result.detail, result: { status: "calculated", computed: true, value: 21 } };
  assert.ok(rejected(computed).some((c) => c.startsWith("results")), rejected(computed).join("; "));
  const listed = copy(run);
  const listing = listed.wire.find((f) => f.from === "client" && f.label.method === "tools/list")!;
  listed.wire.push({ ...copy(listing), index: listed.wire.length });
  assert.ok(rejected(listed).includes("frames on the wire"), rejected(listed).join("; "));
});

test.run();
