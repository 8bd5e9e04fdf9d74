// The mcp-go peer (github.com/mark3labs/mcp-go, not the official go-sdk; lab/peers/mcp-go/): ONE real nested
// run over stdio against ts1, shared by the tests here. Its stdio transport gives each inbound request a
// goroutine of its own (client/transport/stdio.go:759-784), so the nested tools/list is answered while the
// callback waits; the expectation rejects the run corrupted. A bad plan is one line, exit 2.
import "./support/child-pids.js";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { replyTo, resultsOf } from "../lab/check/verify.js";
import { BUILD_DIR } from "../lab/paths.js";
import { MCP_GO_CLIENT } from "../lab/peers/mcp-go/index.js";
import { sdkText } from "../lab/plan/peer.js";
import { assertRejectsCorrupted, failuresOf, nestedRun } from "./support/nested-peer.js";
import { needs } from "./support/needs.js";

/** a test that needs the go build (npm run setup): without it, a named skip (under CI=true, a failure) */
const mcpGoTest = needs(MCP_GO_CLIENT);
const run = () => nestedRun(MCP_GO_CLIENT);
const CALCULATED = { status: "calculated", computed: true, value: 21 };

test("mcp-go names its SDK version as its build has it (lab/peers/installed.ts)", () => {
  assert.match(sdkText(MCP_GO_CLIENT.sdk), mcpGoTest.missing === undefined ? /^mcp-go \(mark3labs\) v1\.\d+\.\d+$/ : /^mcp-go \(mark3labs\) not built \(pins v1\.\d+\.\d+\)$/);
});

mcpGoTest("mcp-go -> ts1 (nested, stdio): passes expected/nested.sdk.mcp-go.json; 21 twice; the nested reply is read while the callback is open", async () => {
  const r = await run();
  assert.equal(failuresOf(r), []);
  assert.is(r.fault, undefined);
  assert.equal(resultsOf(r.events), { first: CALCULATED, recovery: CALCULATED });
  // the nested tools/list: sent after the first form arrived, its reply on the wire before the callback answered
  const elicit = r.wire.find((f) => f.from === "server" && f.label.method === "elicitation/create")!;
  const nested = r.wire.find((f) => f.index > elicit.index && f.from === "client" && f.label.method === "tools/list")!;
  const left = r.events.find((e) => e.kind === "callback.left" && e.detail?.call === "first")!;
  assert.ok(replyTo(r.wire, nested)!.t < left.t, "the nested reply arrived before the callback answered");
  // each callback names the JSON-RPC id of its elicitation/create (idTransport, lab/peers/mcp-go/main.go)
  const asked = r.wire.filter((f) => f.from === "server" && f.label.method === "elicitation/create").map((f) => f.label.id);
  assert.equal(r.events.filter((e) => e.kind === "callback.entered").map((e) => e.id), asked);
  assert.not.ok(r.wire.some((f) => f.label.method === "notifications/cancelled"));
});

mcpGoTest("mcp-go: the expectation rejects the real run with the nested request failed, or returned after the callback answered", async () => {
  assertRejectsCorrupted("mcp-go", await run());
});

mcpGoTest("mcp-go: a plan that breaks the schema is one line on stderr and exit 2, no stack trace", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-go-plan-"));
  try {
    writeFileSync(join(dir, "plan.json"), JSON.stringify({ scenario: "nested", calls: [], surprise: true }));
    const r = spawnSync(join(BUILD_DIR, "mcp-go-client"), ["--plan", join(dir, "plan.json"), "--events", join(dir, "events.jsonl")], { encoding: "utf8", timeout: 20_000, input: "" });
    assert.is(r.status, 2);
    assert.is(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, /^go-client: bad plan /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
