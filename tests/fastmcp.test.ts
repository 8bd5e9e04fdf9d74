// The FastMCP 4.2.3 client (fastmcp.Client on mcp 2.3.0) in ONE real run: nested over stdio against
// the ts1 server (in the lab's process, so the server's frames are on the timeline). It must pass its
// hand-written expectation; mode='legacy' sends no server/discover probe and declares the SDK's own
// elicitation {form, url}; corrupted copies of this evidence must be rejected; and a plan FastMCP's
// public Client cannot run is refused by the driver in one line before anything is sent. Besides it,
// FastMCP's default mode='auto' against each server peer: what the probe really meets (findings-fastmcp.md).
import "./support/child-pids.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import type { SessionEvidence } from "../lab/plan/session.js";
import * as assert from "uvu/assert";
import { expectationFor } from "../lab/check/expectations.js";
import { verify } from "../lab/check/verify.js";
import { FASTMCP_CLIENT, fastmcpClient } from "../lab/peers/fastmcp/index.js";
import { PY_SERVER } from "../lab/peers/py/index.js";
import { PY1_SERVER } from "../lab/peers/py1/index.js";
import { TS1_SERVER } from "../lab/peers/ts1/index.js";
import { TS2_SERVER } from "../lab/peers/ts2/index.js";
import { readVersions } from "../lab/peers/versions.js";
import type { ProcessClientDriver, ServerPeer } from "../lab/plan/peer.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import { runSession } from "../lab/session/session.js";
import { openProcessTransport } from "../lab/transports/process.js";
import { findScenario } from "../scenarios/index.js";
import { needs } from "./support/needs.js";
import { copy } from "./support/runs.js";
import { runToEnd, type ProgramEnd } from "./support/program.js";
import { sharedRuns } from "./support/shared-runs.js";

/** a test that needs .venv-fastmcp (npm ci sets it up): a named skip, or under CI a failure, without it */
const fastmcpTest = needs(FASTMCP_CLIENT);
let shared: Promise<RunRecord> | undefined;
const real = () =>
  (shared ??= runCase(findScenario("nested")!, "sdk", { client: FASTMCP_CLIENT, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((r) => r.runs[0]!));
const failures = (run: RunRecord) => run.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);
const expected = () => expectationFor("nested", "sdk", { client: "fastmcp", server: "ts1" })!.expectation;
const failed = (run: Pick<RunRecord, "events" | "wire">) => verify({ events: run.events, wire: run.wire, transport: "stdio" }, expected()).filter((v) => !v.ok).map((v) => v.check);

fastmcpTest("fastmcp nested against ts1: passes expected/nested.sdk.fastmcp.json; legacy: initialize, no server/discover", async () => {
  const run = await real();
  assert.ok(expectationFor("nested", "sdk", { client: "fastmcp", server: "ts1" })!.file.endsWith("nested.sdk.fastmcp.json"));
  assert.equal(failures(run), []);
  assert.is(run.negotiatedProtocol, "2025-11-25");
  assert.not.ok(run.wire.some((f) => f.label.method === "server/discover"));
  // ClientSession declares elicitation {form, url} whenever a callback is set (mcp/client/session.py:634-636)
  const init = run.wire.find((f) => f.label.method === "initialize" && f.from === "client")!.message as unknown as { params: { capabilities: unknown } };
  assert.equal(init.params.capabilities, { elicitation: { form: {}, url: {} } });
  const negotiated = run.events.find((e) => e.kind === "protocol.negotiated");
  assert.equal(negotiated?.detail, { negotiation: "legacy", protocolVersion: "2025-11-25", era: "legacy" });
});

fastmcpTest("corrupted fastmcp evidence is rejected: a late nested reply, a probe on the wire, a different answer", async () => {
  const run = await real();
  assert.equal(failed(run), [], "the real run itself must pass");
  // the nested request returning only after the callback answered (a serial loop's story)
  const late = copy(run);
  const ok = late.events.find((e) => e.kind === "nested.ok")!;
  ok.t = late.events.find((e) => e.kind === "callback.left" && e.detail?.call === "first")!.t + 0.01;
  late.events.sort((a, b) => a.t - b.t).forEach((e, i) => (e.seq = i));
  assert.ok(failed(late).some((c) => c.startsWith("order: the nested request returns inside the callback")), failed(late).join("; "));
  // a server/discover probe on the wire (what mode='auto' sends first, client.py:914-916)
  const probed = copy(run);
  const first = probed.wire[0]!;
  probed.wire.unshift({ ...first, message: { jsonrpc: "2.0", id: 99, method: "server/discover" }, label: { ...first.label, method: "server/discover", id: 99 } });
  probed.wire.forEach((f, i) => (f.index = i));
  assert.ok(failed(probed).includes("frames on the wire"), failed(probed).join("; "));
  // a callback that answered decline instead of accept
  const declined = copy(run);
  const left = declined.events.find((e) => e.kind === "callback.left" && e.detail?.call === "first")!;
  left.detail = { ...left.detail, action: "decline" };
  assert.ok(failed(declined).includes("callback answers"), failed(declined).join("; "));
});

// FastMCP's default mode, not a registered peer: what it really does against each kind of server.
const AUTO = fastmcpClient("fastmcp-auto", "auto", "FastMCP 4.2.3's Client with its default mode='auto'");
/** FastMCP's client is busy Python: five at once on two cores took longer than two at a time. */
const sessions = sharedRuns<SessionEvidence>(2);
const autoRun = (server: ServerPeer): Promise<SessionEvidence> =>
  sessions.get(server.name, () => runSession(findScenario("nested")!, openProcessTransport, "stdio", { loop: "sdk", client: AUTO, server }));
// the five sessions this file reads start together when its tests begin: each is mostly waiting
test.before(() => {
  if (fastmcpTest.missing) return;
  real().catch(() => undefined);
  for (const server of [TS1_SERVER, TS2_SERVER, PY1_SERVER, PY_SERVER]) void autoRun(server);
  return Promise.allSettled([real(), sessions.settled()]).then(() => undefined);
});
const clientRequests = (run: Pick<RunRecord, "wire">) => run.wire.filter((f) => f.from === "client" && f.label.frameType === "request").map((f) => f.label.method);
const errorOf = (run: Pick<RunRecord, "wire">, method: string) => (run.wire.find((f) => f.label.method === method && f.label.frameType === "error")?.message as unknown as { error?: { code: number } } | undefined)?.error?.code;

fastmcpTest("mode auto against ts1: server/discover first, -32601, then the initialize handshake (client.py:914-921)", async () => {
  const run = await autoRun(TS1_SERVER);
  assert.equal(run.errors, []);
  assert.equal(clientRequests(run).slice(0, 3), ["server/discover", "initialize", "tools/list"]);
  assert.is(errorOf(run, "server/discover"), -32601);
  assert.is(run.events.find((e) => e.kind === "protocol.negotiated")?.detail?.protocolVersion, "2025-11-25");
  assert.is(run.wire.filter((f) => f.label.method === "elicitation/create" && f.label.frameType === "request").length, 2);
});

fastmcpTest("mode auto against ts2: the probe is answered and 2026-07-28 adopted: no initialize, no elicitation/create", async () => {
  const run = await autoRun(TS2_SERVER);
  assert.equal(run.errors, []);
  assert.is(clientRequests(run)[0], "server/discover");
  assert.is(run.events.find((e) => e.kind === "protocol.negotiated")?.detail?.protocolVersion, "2026-07-28");
  assert.not.ok(run.wire.some((f) => f.label.method === "initialize" || f.label.method === "elicitation/create"));
});

needs([FASTMCP_CLIENT, PY1_SERVER, PY_SERVER])("mode auto against the Python servers: py1 refuses the probe (-32602) and gets initialize; py adopts 2026-07-28 and its ctx.elicit tools end -32600", async () => {
  const [old, modern] = await Promise.all([autoRun(PY1_SERVER), autoRun(PY_SERVER)]);
  assert.equal([...old.errors, ...modern.errors], []);
  assert.equal(clientRequests(old).slice(0, 2), ["server/discover", "initialize"]);
  assert.is(errorOf(old, "server/discover"), -32602);
  assert.is(clientRequests(modern)[0], "server/discover");
  assert.not.ok(modern.wire.some((f) => f.label.method === "initialize" || f.label.method === "elicitation/create"));
  const results = modern.events.filter((e) => e.kind === "tool.result").map((e) => (e.detail?.result as { status?: string; code?: number } | undefined));
  assert.equal(results.map((r) => [r?.status, r?.code]), [["protocol_error", -32600], ["protocol_error", -32600]]);
});

/** The driver alone on a plan, as the lab starts it: exit status and stderr, nothing on the wire (stdin closed). */
async function driverOn(plan: unknown): Promise<ProgramEnd> {
  const dir = mkdtempSync(join(tmpdir(), "fastmcp-plan-"));
  try {
    writeFileSync(join(dir, "plan.json"), JSON.stringify(plan));
    return await runToEnd((FASTMCP_CLIENT.driver as ProcessClientDriver).command(join(dir, "plan.json"), join(dir, "events.jsonl")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const call = (label: string, timeoutMs: number) => ({ label, callback: { nested: { method: "tools/list", timeoutMs }, answer: { action: "accept" } } });
const PLAN = { scenario: "refusals", capabilities: { elicitation: { form: {} } }, listToolsFirst: false, callTimeoutMs: 5_000, calls: [call("a", 500)] };

fastmcpTest("a plan FastMCP's public Client cannot run is refused in one line, with FastMCP's source line, before anything is sent", async () => {
  const cases: [unknown, RegExp][] = [
    [{ ...PLAN, capabilities: { elicitation: { form: { applyDefaults: true } } } }, /elicitation capability .*mcp\/client\/session\.py:634-636/],
    [{ ...PLAN, capabilities: { elicitation: { form: {} }, sampling: {}, experimental: {} } }, /capabilities \['experimental'\].*client\.py:560-593/],
  ];
  for (const [plan, reason] of cases) {
    const r = await driverOn(plan);
    assert.is(r.status, 2, r.stderr);
    assert.is(r.stdout, "");
    const lines = r.stderr.trim().split("\n");
    assert.is(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^fastmcp client\.py: plan refusals refused: FastMCP's public Client cannot run it: /);
    assert.match(lines[0]!, reason);
  }
  const bad = await driverOn({ ...PLAN, calls: [] });
  assert.is(bad.status, 2);
  assert.match(bad.stderr.trim(), /^fastmcp client\.py: bad plan .*: calls: /);
  assert.not.match(bad.stderr, /Traceback/);
});

test.run();
