// The FastMCP 4.2.3 server peer (lab/peers/fastmcp/server.py) in ONE real run: the contract case
// accept_no_content, the ts1 client against the server's stdio child. It must hold its hand-written
// expectation (expected/contract/fastmcp/accept_no_content.json): FastMCP validates a missing content
// against the model (fastmcp/server/elicitation.py:368-369), so the answer is invalid_content where the
// Python SDK's own servers say invalid_response; and corrupted copies of this evidence must be rejected.
// Besides it, FastMCP's own Client in its default mode='auto' against this server (one nested session).
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { contractDir, loadContractExpectation, verifyContract } from "../lab/check/contract.js";
import { FASTMCP_SERVER, fastmcpClient } from "../lab/peers/fastmcp/index.js";
import { SERVER_PEERS } from "../lab/peers/registry.js";
import { readVersions } from "../lab/peers/versions.js";
import type { RunRecord } from "../lab/session/pipeline.js";
import { runContractCase } from "../lab/session/contract.js";
import { runSession } from "../lab/session/session.js";
import { openProcessTransport } from "../lab/transports/process.js";
import { findScenario } from "../scenarios/index.js";
import { findContractCase } from "../scenarios/contract/index.js";
import { needs } from "./support/needs.js";
import { copy } from "./support/runs.js";

const CASE = "accept_no_content";
/** a test that needs .venv-fastmcp (npm ci sets it up): a named skip, or under CI a failure, without it */
const fastmcpTest = needs(FASTMCP_SERVER);
const expected = () => loadContractExpectation(CASE, contractDir(undefined, "fastmcp"), "fastmcp");
let shared: Promise<RunRecord> | undefined;
const real = () =>
  (shared ??= runContractCase(findContractCase(CASE)!, expected(), { server: FASTMCP_SERVER, transports: ["stdio"], repeat: 1 }, readVersions()).then((r) => r.runs[0]!));
const failed = (run: RunRecord) => verifyContract(run, expected()).filter((v) => !v.ok).map((v) => v.check);

test("the fastmcp server is a registered server peer", () => {
  assert.ok(SERVER_PEERS.includes(FASTMCP_SERVER));
});

fastmcpTest("accept_no_content against fastmcp: holds its expectation, invalid_content from the server SDK", async () => {
  const run = await real();
  assert.equal(run.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`), []);
  const result = run.events.find((e) => e.kind === "tool.result")?.detail?.result as { status?: string; rejectedBy?: string };
  assert.equal([result.status, result.rejectedBy], ["invalid_content", "sdk"]);
  assert.is(run.negotiatedProtocol, "2025-11-25");
});

fastmcpTest("corrupted fastmcp server evidence is rejected: the SDK servers' status, a schema without additionalProperties", async () => {
  const run = await real();
  assert.equal(failed(run), [], "the real run itself must pass");
  // the Python SDK servers' reading of the same answer (mcp 2.3.0 elicitation.py:131-133)
  const other = copy(run);
  const result = other.events.find((e) => e.kind === "tool.result")!;
  result.detail = { ...result.detail, result: { status: "invalid_response", computed: false, value: null, rejectedBy: "sdk" } };
  assert.ok(failed(other).some((c) => c.startsWith("results")), failed(other).join("; "));
  // FastMCP keeps additionalProperties false (compress_schema, prune_additional_properties=False)
  const loose = copy(run);
  const form = loose.wire.find((f) => f.label.method === "elicitation/create" && f.label.frameType === "request")!;
  delete (form.message as unknown as { params: { requestedSchema: Record<string, unknown> } }).params.requestedSchema.additionalProperties;
  assert.ok(failed(loose).includes("requestedSchema on the wire (exact)"), failed(loose).join("; "));
});

// FastMCP to FastMCP, both in their defaults: the client's probe is answered (mcp/server/lowlevel/server.py:460), 2026-07-28
// is adopted, and calculate asks by InputRequiredResult, which the Client drives with its elicitation_handler
// (fastmcp/client/client.py:1383-1413): no elicitation/create, four tools/call for two calls, 21 twice.
fastmcpTest("FastMCP's Client in mode='auto' against the fastmcp server: 2026-07-28, input-required rounds, 21 twice", async () => {
  const auto = fastmcpClient("fastmcp-auto", "auto", "FastMCP 4.2.3's Client with its default mode='auto'");
  const run = await runSession(findScenario("nested")!, openProcessTransport, "stdio", { loop: "sdk", client: auto, server: FASTMCP_SERVER });
  assert.equal(run.errors, []);
  const requests = run.wire.filter((f) => f.label.frameType === "request");
  assert.is(requests[0]?.label.method, "server/discover");
  assert.not.ok(requests.some((f) => f.label.method === "initialize" || f.label.method === "elicitation/create"));
  assert.is(requests.filter((f) => f.label.method === "tools/call").length, 4);
  assert.is(run.events.find((e) => e.kind === "protocol.negotiated")?.detail?.protocolVersion, "2026-07-28");
  const results = run.events.filter((e) => e.kind === "tool.result").map((e) => (e.detail?.result as { value?: unknown } | undefined)?.value);
  assert.equal(results, [21, 21]);
});

test.run();
