// openai-agents 0.25.0's MCPServerStdio (Python) on mcp 2.3.0, in ONE real nested run over stdio against the ts1 server:
// it takes no elicitation callback, so mcp.Client declares none, the server does not ask, and both calls end
// `unsupported`. It passes its hand-written expectation; corrupted copies of the evidence are rejected.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectationFor } from "../lab/check/expectations.js";
import { OPENAI_AGENTS_PY_CLIENT } from "../lab/peers/openai-agents-py/index.js";
import type { RunRecord } from "../lab/session/pipeline.js";
import { needs } from "./support/needs.js";
import { clientRequests as requests, failedAgainst, failuresOf, nestedRun } from "./support/nested-peer.js";
import { copy } from "./support/runs.js";

const peerTest = needs(OPENAI_AGENTS_PY_CLIENT);
const real = () => nestedRun(OPENAI_AGENTS_PY_CLIENT);
const failed = (run: Pick<RunRecord, "events" | "wire">) => failedAgainst("openai-agents-py", run);

test.before(() => (peerTest.missing ? undefined : real().then(() => undefined, () => undefined)));

peerTest("openai-agents-py nested against ts1: passes expected/nested.sdk.openai-agents-py.json; declares no elicitation, so nothing is asked", async () => {
  const run = await real();
  assert.ok(expectationFor("nested", "sdk", { client: "openai-agents-py", server: "ts1" })!.file.endsWith("nested.sdk.openai-agents-py.json"));
  assert.equal(failuresOf(run), []);
  const initialize = run.wire.find((f) => f.from === "client" && f.label.method === "initialize")?.message as { params?: { capabilities?: Record<string, unknown> } };
  assert.equal(initialize.params?.capabilities?.elicitation, undefined);
  assert.is(requests(run, "server/discover"), 1, "mode='auto' probes first (agents/mcp/_compat.py:67-83)");
  assert.ok(run.events.some((e) => e.kind === "note" && Array.isArray(e.detail?.notDeclared)));
});

peerTest("corrupted openai-agents-py evidence is rejected: a computed result, or no note of what it could not declare", async () => {
  const run = await real();
  assert.equal(failed(run), [], "the real run itself must pass");
  const computed = copy(run);
  computed.events.find((e) => e.kind === "tool.result")!.detail!.result = { status: "calculated", computed: true, value: 21 };
  assert.ok(failed(computed).includes("results (type-aware)"));
  assert.ok(failed(computed).includes("results match the wire"));
  const silent = copy(run);
  silent.events = silent.events.filter((e) => !(e.kind === "note" && e.detail?.notDeclared !== undefined));
  assert.ok(failed(silent).some((c) => c.startsWith("order: the driver notes the capabilities")));
});

test.run();
