// The probe tools' sessions, as data: which client peers run them, against `serve` as a real
// stdio child (its built form, node build/child-server.cjs, or `npx tsx lab/run.ts serve`), or in
// memory. Runs are made once and shared by the test files.
import "./child-pids.js";
import { sharedRuns } from "./shared-runs.js";
import { join } from "node:path";
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { LoopModel } from "../../lab/history/receive-loop.js";
import { PROJECT_ROOT } from "../../lab/paths.js";
import { findClient } from "../../lab/peers/registry.js";
import { CHILD_BUNDLE, ensureChildBuilt } from "../../lab/peers/ts1/child-build.js";
import type { ClientPeer, ServerPeer } from "../../lab/plan/peer.js";
import { ACCEPT_VALID, FORM_CAPABILITY, type CallbackContext, type Scenario } from "../../lab/plan/scenario.js";
import { runSession } from "../../lab/session/session.js";
import { type SessionEvidence } from "../../lab/plan/session.js";
import { openMemoryTransport } from "../../lab/transports/memory.js";
import { openProcessTransport } from "../../lab/transports/process.js";
import type { LoopVerdict } from "../../lab/peers/ts1/probe-judge.js";
import { whyNot } from "./needs.js";
import { ACCEPT_READY, FAN_OUT_N, PROBE_CALLBACK_MS, PROBE_SCENARIO } from "../../scenarios/probe.js";

export { FAN_OUT_N, PROBE_CALLBACK_MS, PROBE_SCENARIO };

/** One line per client peer: what the probe must say about it: `verdict` for probe_receive_loop
 *  (a form), `sampling` for probe_sampling (a client's loop can differ by request type; absent:
 *  not claimed yet, and counted as skipped). A peer not here yet is skipped with its reason
 *  printed; `memory` runs too when the client lives in this process. */
export interface ProbeRow {
  client: string;
  loop: LoopModel;
  verdict: LoopVerdict;
  sampling?: LoopVerdict;
  /** in npm test, and why: the fewest rows that show each verdict and each path of the probe
   *  (in memory and over serve, a model and real serial clients, a split by method, a refusal).
   *  Every row runs under LAB_TESTS=full, as .ci/run does. */
  core?: string;
  /** the framework hands its caller a result's text only (why): the test reads the probe's structured
   *  result from the server's reply on the wire, as the lab recorded it */
  textOnly?: string;
}

export const PROBE_TABLE: ProbeRow[] = [
  { client: "ts1", loop: "sdk", verdict: "concurrent", sampling: "concurrent", core: "the reference: concurrent, in memory and over serve" },
  // the serial model holds every inbound request's handler, whatever its method (lab/history/receive-loop.ts)
  { client: "ts1", loop: "serial", verdict: "serial", sampling: "serial", core: "the serial model, in memory and over serve" },
  { client: "py", loop: "sdk", verdict: "concurrent", sampling: "concurrent" },
  // its inline dispatcher covers elicitation/create only; sampling still goes through mcp 2.3.0's spawn
  { client: "py-inline", loop: "sdk", verdict: "serial", sampling: "concurrent", core: "a loop that differs by method" },
  { client: "ts2", loop: "sdk", verdict: "concurrent", sampling: "concurrent" },
  // @ai-sdk/mcp 2.0.99 (under Node 22, its own process): onmessage starts each inbound request's handler without awaiting it (dist/index.js:2411-2418);
  // sampling/createMessage has no handler and is answered -32601 (findings-ai-sdk #9): not run
  { client: "ai-sdk", loop: "sdk", verdict: "concurrent", sampling: "not_run", core: "sampling refused: not_run" },
  // @mastra/mcp 2.0.0 on @modelcontextprotocol/client 2.0.0, whose Protocol starts each inbound request's
  // handler without awaiting it (dist/src-D_zzAWoS.mjs:5896). No sampling verdict: its driver refuses a
  // plan that declares sampling before anything is sent (MCPClientCapabilities has none, @mastra/mcp
  // dist/client/types.d.ts:102-108; tests/frameworks.test.ts shows the refusal).
  // langchain, openai-agents and genkit declare no elicitation, so a probe's form is never sent: no row.
  { client: "mastra", loop: "sdk", verdict: "concurrent" },
  // the real serial client: Python SDK 1.29.0 as shipped (mcp/shared/session.py:376), not a model;
  // its sampling callback runs inside the same await (mcp/client/session.py:579-587)
  { client: "py1", loop: "sdk", verdict: "serial", sampling: "serial", core: "the real serial client the lesson is about" },
  // semantic-kernel 1.45.0 declares no elicitation (its ClientSession gets a sampling callback only, connectors/mcp.py:334-343),
  // so the form probe is never sent: not_run; its sampling callback is awaited inline by mcp 1.30.0's loop (shared/session.py:376)
  { client: "semantic-kernel", loop: "sdk", verdict: "not_run", sampling: "serial", textOnly: "plugin.call_tool keeps content blocks only (connectors/mcp.py:95-99)" },
  // fast-agent-mcp 0.2.36 registers no elicitation callback (mcp_agent/mcp/mcp_agent_client_session.py:75-100): not_run. No
  // sampling verdict: its own model answers sampling (mcp_agent/mcp/sampling.py:63-150), not a callback of the lab's
  { client: "fast-agent", loop: "sdk", verdict: "not_run" },
  // FastMCP 4.2.3 runs its handler on mcp 2.3.0's dispatcher, which spawns each inbound request (jsonrpc_dispatcher.py:623)
  { client: "fastmcp", loop: "sdk", verdict: "concurrent", sampling: "concurrent" },
  // pydantic-ai-slim 2.78.0's MCPToolset: FastMCP 4.2.3's Client probes server/discover, ts1 refuses it and the session is
  // 2025-11-25 on mcp 2.3.0's dispatcher, which spawns each inbound request (jsonrpc_dispatcher.py:688-707), sampling too
  { client: "pydantic-ai", loop: "sdk", verdict: "concurrent", sampling: "concurrent" },
  // the same beside mcp<2: FastMCP 3.4.11 on mcp 1.30.0, whose loop awaits every inbound request's handler (shared/session.py:376)
  { client: "pydantic-ai-mcp1", loop: "sdk", verdict: "serial", sampling: "serial" },
  // strands-agents 1.65.0's MCPClient on mcp 2.3.0, whose dispatcher spawns each inbound request (jsonrpc_dispatcher.py:623).
  // No sampling verdict: strands takes no sampling callback (mcp_client.py:318), so its driver refuses a plan that declares it.
  // strands-sync too: the probe's callback sends no nested request, so list_tools_sync never blocks the loop.
  { client: "strands", loop: "sdk", verdict: "concurrent" },
  { client: "strands-sync", loop: "sdk", verdict: "concurrent" },
  // @strands-agents/sdk 1.19.0 (TypeScript) registers its elicitationCallback as the handler of @modelcontextprotocol/sdk
  // 1.32.2's Client as it is (dist/src/mcp/client.js:143-148), whose Protocol does not await a handler (shared/protocol.js:383-395).
  // No sampling verdict: McpClient takes no sampling handler (client.js:56-60), so its driver refuses a plan that declares it.
  { client: "strands-ts", loop: "sdk", verdict: "concurrent" },
  // google-adk 2.15.0's McpToolset hands the SDK's own callbacks to ClientSession unchanged (session_context.py:454-463):
  // on mcp 2.3.0 (google-adk[mcp] alone) the dispatcher spawns each inbound request (jsonrpc_dispatcher.py:688-707), sampling too;
  // on mcp 1.30.0 (beside langchain-mcp-adapters) the loop awaits each inline (mcp/shared/session.py:376), sampling too
  { client: "google-adk", loop: "sdk", verdict: "concurrent", sampling: "concurrent" },
  { client: "google-adk-mcp1", loop: "sdk", verdict: "serial", sampling: "serial" },
  // openai-agents 0.25.0 (Python) takes no callback (agents/mcp/server.py:1968-1980): mcp.Client declares no elicitation
  // (mcp/client/session.py:634-637), so the form probe is never sent; nor is a sampling one (none declared): no sampling row
  { client: "openai-agents-py", loop: "sdk", verdict: "not_run" },
  // langchain-mcp-adapters 0.3.2 hands out mcp 1.30.0's ClientSession (client.py:129-164), whose loop awaits each inbound
  // request's handler inline (mcp/shared/session.py:376). No sampling callback (callbacks.py:97-102): none is declared, so
  // the sampling probe is never sent: not_run
  { client: "langchain-py", loop: "sdk", verdict: "serial", sampling: "not_run" },
  // mcp-use 1.7.1 passes its callbacks to mcp 1.30.0's ClientSession as they are (connectors/stdio.py:88-97): the same inline await
  { client: "mcp-use", loop: "sdk", verdict: "serial", sampling: "serial" },
  // a goroutine per inbound request, released before it is handled (mcp/client.go:1188-1193), sampling too
  { client: "go", loop: "sdk", verdict: "concurrent", sampling: "concurrent" },
  // mcp-go 1.6.0: its stdio transport runs each inbound request's handler on a goroutine of its own
  // (client/transport/stdio.go:759-784), sampling too (client.go:852-906)
  { client: "mcp-go", loop: "sdk", verdict: "concurrent", sampling: "concurrent" },
  // a tokio task per inbound request (rmcp service.rs:1669), sampling too
  { client: "rmcp", loop: "sdk", verdict: "concurrent", sampling: "concurrent" },
  { client: "kotlin-0.14", loop: "sdk", verdict: "serial", sampling: "serial", core: "the other real serial client (a JVM driver)" },
  // rust-mcp-sdk 1.1.0: its runtime's one main task awaits each request handler inside handle_message
  // (client_runtime.rs:201-204, :304-311), sampling too (mcp_client_runtime.rs:132-144)
  { client: "rust-mcp-sdk", loop: "sdk", verdict: "serial", sampling: "serial" },
  { client: "kotlin", loop: "sdk", verdict: "concurrent", sampling: "concurrent" },
  // McpClientSession subscribes to each request's handler and reads on (McpClientSession.java:152-174)
  { client: "java", loop: "sdk", verdict: "concurrent", sampling: "concurrent" },
  // the same session; McpClient.sync's blocking handlers run on boundedElastic threads (McpClientFeatures.java:206-214)
  { client: "java-sync", loop: "sdk", verdict: "concurrent", sampling: "concurrent" },
  // Spring AI 2.0.0 hands its annotated handlers to that same SyncSpec (McpClientAutoConfiguration.java:168-171) on the Java SDK 2.0.0
  { client: "spring-ai", loop: "sdk", verdict: "concurrent", sampling: "concurrent" },
];

/** probe_sampling's session: the client declares sampling (and forms, so the form probe's refusal
 *  is not what is measured); its sampling callback thinks as the form callbacks do. */
export const PROBE_SAMPLING_SCENARIO: Scenario = {
  name: "probe-sampling",
  summary: `probe_sampling with a ${PROBE_CALLBACK_MS} ms sampling callback, then calculate`,
  capabilities: { ...FORM_CAPABILITY, sampling: {} },
  listToolsFirst: true,
  calls: [
    { label: "sampling", tool: "probe_sampling", args: {}, sampling: { delayMs: PROBE_CALLBACK_MS } },
    { label: "recovery", callback: ACCEPT_VALID },
  ],
};

/** A callback that never answers: it ends only when the server withdraws the request (it notes
 *  which ended it). Bounded all the same. */
const NEVER = async ({ extra, note }: Pick<CallbackContext, "extra" | "note">): Promise<ElicitResult> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => (note("note", { neverEnded: "own bound" }), resolve({ action: "cancel" })), 10_000);
    extra.signal.addEventListener("abort", () => (clearTimeout(timer), note("note", { neverEnded: "withdrawn" }), resolve({ action: "cancel" })));
  });

export const NEVER_LIMIT_MS = 1_000;

/** ts1 under sdk: refusals, a client that never answers, arguments out of range, then calculate. */
export const EDGE_SCENARIO: Scenario = {
  name: "probe-edges",
  summary: "the probes refused, never answered and called with bad arguments; the server keeps serving",
  capabilities: FORM_CAPABILITY,
  listToolsFirst: true,
  calls: [
    // first, so the withdrawn request below is not id 0 (the 1.32.2 client ignores a cancel of id 0)
    { label: "declined", tool: "probe_receive_loop", callback: { answer: { action: "decline" } } },
    { label: "cancelled", tool: "probe_receive_loop", callback: { answer: { action: "cancel" } } },
    { label: "fan-out-declined", tool: "probe_fan_out", args: { n: 2 }, callback: { answer: { action: "decline" } } },
    { label: "never", tool: "probe_receive_loop", args: { limitMs: NEVER_LIMIT_MS }, code: NEVER },
    { label: "interval-too-small", tool: "probe_receive_loop", args: { pingIntervalMs: 5 } },
    { label: "limit-too-small", tool: "probe_receive_loop", args: { limitMs: 999 } },
    { label: "interval-not-int", tool: "probe_receive_loop", args: { pingIntervalMs: 50.5 } },
    { label: "n-too-big", tool: "probe_fan_out", args: { n: 17 } },
    { label: "n-zero", tool: "probe_fan_out", args: { n: 0 } },
    { label: "n-string", tool: "probe_fan_out", args: { n: "4" } },
    { label: "recovery", callback: ACCEPT_VALID },
  ],
};

/** ts1 under serial: an answer with no think time comes before a ping can tell. */
export const TOO_FAST_SCENARIO: Scenario = {
  name: "probe-too-fast",
  summary: "the form accepted at once under the serial model; fan-out of one",
  capabilities: FORM_CAPABILITY,
  listToolsFirst: true,
  calls: [
    { label: "loop", tool: "probe_receive_loop", callback: { answer: ACCEPT_READY } },
    { label: "fan-out-one", tool: "probe_fan_out", args: { n: 1 }, callback: { answer: ACCEPT_READY } },
  ],
};

export const NO_CAPABILITY_SCENARIO: Scenario = {
  name: "probe-no-capability",
  summary: "a client that declared no elicitation",
  capabilities: {},
  listToolsFirst: false,
  calls: [{ label: "loop", tool: "probe_receive_loop" }, { label: "fan-out", tool: "probe_fan_out" }],
};

const serveChild = (name: string, meaning: string, command: () => { command: string; args: string[] }): ServerPeer => ({
  name,
  sdk: "@modelcontextprotocol/sdk 1.32.2",
  meaning,
  unavailable: () => undefined,
  // no inProcess: a client in another process is relayed to this child, never to an in-process server
  child: { prepare: ensureChildBuilt, writesEvents: false, command },
});

/** `serve`'s built form, as the README gives it to any MCP client. */
export const SERVE_BUILT = serveChild("serve", "node build/child-server.cjs", () => ({ command: process.execPath, args: [CHILD_BUNDLE] }));
/** `serve` through tsx, as `npx tsx lab/run.ts serve` starts it (one process: tsx as a loader,
 *  the way tests/support/cli.ts runs the CLI, so the lab's handle is the server's own pid). */
export const SERVE_TSX = serveChild("serve-tsx", "tsx lab/run.ts serve", () => ({ command: process.execPath, args: ["--import", "tsx", join(PROJECT_ROOT, "lab", "run.ts"), "serve"] }));

/** LAB_TESTS=full: every row (.ci/run); otherwise the core rows (npm test). */
export const FULL_TABLE = process.env.LAB_TESTS === "full";
export const PROBE_ROWS = PROBE_TABLE.filter((row) => FULL_TABLE || row.core !== undefined);

/** The client peer for a table row, or why it cannot run here. */
export function probeClient(name: string): ClientPeer | string {
  const peer = findClient(name);
  if (!peer) return `no client peer named ${name} in this tree yet`;
  return whyNot(peer) ?? peer;
}

export const transportsFor = (client: ClientPeer): ("memory" | "serve")[] => (client.driver.kind === "in-process" ? ["memory", "serve"] : ["serve"]);

/** Probe sessions at once: each is mostly waiting (300 ms callbacks, pings). Two: fan-out's
 *  inference reads reply times, and three sessions in one event loop bunched a serial client's replies. */
const sessions = sharedRuns<SessionEvidence>(2);

/** One session, made on first use (or started ahead by a file's test.before) and shared. */
export function probeRun(scenario: Scenario, client: ClientPeer, loop: LoopModel, transport: "memory" | "serve", server: ServerPeer = SERVE_BUILT): Promise<SessionEvidence> {
  return sessions.get(`${scenario.name}.${client.name}.${loop}.${transport}.${server.name}`, () =>
    transport === "memory"
      ? runSession(scenario, openMemoryTransport, "memory", { loop: loop, client })
      : runSession(scenario, openProcessTransport, "stdio", { loop: loop, client, server }),
  );
}
