// The strands-ts peer (@strands-agents/sdk's McpClient, lab/peers/strands-ts/, a process under build/node22):
// ONE real nested run over stdio against ts1, shared by the tests here. Strands registers its
// elicitationCallback as the 1.32.2 Client's handler with nothing around it (dist/src/mcp/client.js:143-148),
// and that Protocol does not await a handler (shared/protocol.js:383-395), so the nested tools/list is
// answered while the callback waits; the expectation rejects the run corrupted. A refused or bad plan is
// one line and exit 2.
import "./support/child-pids.js";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { replyTo, resultsOf } from "../lab/check/verify.js";
import { STRANDS_TS_CLIENT } from "../lab/peers/strands-ts/index.js";
import { sdkText } from "../lab/plan/peer.js";
import { assertRejectsCorrupted, clientRequests, failuresOf, nestedRun } from "./support/nested-peer.js";
import { needs } from "./support/needs.js";

/** a test that needs the Node 22 build and the install apart (first use): without them, a named skip (under CI=true, a failure) */
const strandsTest = needs(STRANDS_TS_CLIENT);
const run = () => nestedRun(STRANDS_TS_CLIENT);
const CALCULATED = { status: "calculated", computed: true, value: 21 };

test("strands-ts names @strands-agents/sdk and the MCP SDK under it as installed (lab/peers/installed.ts)", () => {
  assert.match(sdkText(STRANDS_TS_CLIENT.sdk), strandsTest.missing === undefined ? /^@strands-agents\/sdk \d+\.\d+\.\d+ \(on sdk 1\.\d+\.\d+\)$/ : /not installed/);
});

strandsTest("strands-ts -> ts1 (nested, stdio): passes expected/nested.sdk.strands-ts.json; 21 twice; the nested reply is read while the callback is open", async () => {
  const r = await run();
  assert.equal(failuresOf(r), []);
  assert.equal(resultsOf(r.events), { first: CALCULATED, recovery: CALCULATED });
  const elicit = r.wire.find((f) => f.from === "server" && f.label.method === "elicitation/create")!;
  const nested = r.wire.find((f) => f.index > elicit.index && f.from === "client" && f.label.method === "tools/list")!;
  const left = r.events.find((e) => e.kind === "callback.left" && e.detail?.call === "first")!;
  assert.ok(replyTo(r.wire, nested)!.t < left.t, "the nested reply arrived before the callback answered");
  // listTools() before the first call (client.js:188-197), then the nested one
  assert.is(clientRequests(r, "tools/list"), 2);
  // each callback names the JSON-RPC id of its elicitation/create (the context's requestId)
  const asked = r.wire.filter((f) => f.from === "server" && f.label.method === "elicitation/create").map((f) => f.label.id);
  assert.equal(r.events.filter((e) => e.kind === "callback.entered").map((e) => e.id), asked);
});

strandsTest("strands-ts declares elicitation { form, url } whatever the plan asks (client.js:56-60), and nothing else", async () => {
  const r = await run();
  const init = r.wire.find((f) => f.from === "client" && f.label.method === "initialize")!;
  const params = (init.message as unknown as { params: { capabilities: unknown; protocolVersion: string } }).params;
  assert.equal(params.capabilities, { elicitation: { form: {}, url: {} } });
  assert.is(params.protocolVersion, "2025-11-25");
});

strandsTest("strands-ts: the expectation rejects the real run with the nested request failed, or returned after the callback answered", async () => {
  assertRejectsCorrupted("strands-ts", await run());
});

/** The driver on `plan` with no MCP peer (stdin empty): its exit status and stderr. */
function driverOn(plan: unknown): { status: number | null; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), "strands-ts-plan-"));
  try {
    writeFileSync(join(dir, "plan.json"), JSON.stringify(plan));
    const driver = STRANDS_TS_CLIENT.driver;
    if (driver.kind !== "process") throw new Error("strands-ts is a process driver");
    const { command, args } = driver.command(join(dir, "plan.json"), join(dir, "events.jsonl"));
    const r = spawnSync(command, [...args], { encoding: "utf8", timeout: 60_000, input: "" });
    return { status: r.status, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

strandsTest("strands-ts: a plan that declares sampling is refused before anything is sent, and a plan that breaks the schema is one line; both exit 2", () => {
  const call = { label: "first", callback: { answer: { action: "accept", content: { a: 3, b: 7 } } } };
  const sampling = driverOn({ scenario: "s", capabilities: { elicitation: { form: {} }, sampling: {} }, listToolsFirst: true, calls: [call], callTimeoutMs: 1000 });
  assert.is(sampling.status, 2, sampling.stderr);
  assert.is(sampling.stderr.trim().split("\n").length, 1, sampling.stderr);
  assert.match(sampling.stderr, /^strands-ts: plan s refused: capabilities sampling: .*client\.js:56-60/);
  const bad = driverOn({ scenario: "nested", calls: [], surprise: true });
  assert.is(bad.status, 2, bad.stderr);
  assert.is(bad.stderr.trim().split("\n").length, 1, bad.stderr);
  assert.match(bad.stderr, /^strands-ts: bad plan /);
});

test.run();
