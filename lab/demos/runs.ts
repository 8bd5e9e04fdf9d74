// In-process runs for the ts2 demos: a client and a server joined by the lab's own linked pair
// (lab/transports/linked.ts), a v1-style transport that records every frame in a Recorder. The v2
// Client and the v2 server (through serveStdio's `transport` option) take it as it is.
import type { Behaviour } from "../plan/behaviour.js";
import { ACCEPT_VALID } from "../plan/scenario.js";
import { withBound } from "../plan/bounds.js";
import { createCalculateServer } from "../peers/ts1/calculate-server.js";
import { createLinkedPair, linkedEnds } from "../transports/linked.js";
import type { LoopModel } from "../history/receive-loop.js";
import type { Scenario } from "../plan/scenario.js";
import { runSession } from "../session/session.js";
import { type OpenTransport } from "../plan/session.js";
import { Recorder, type TimelineEvent, type WireFrame } from "../history/timeline.js";
import type { SessionPlan } from "../plan/behaviour.js";
import { runTs2Session, type Negotiation, type Ts2SessionOutcome } from "../peers/ts2/client.js";
import { serveTs2 } from "../peers/ts2/serve.js";
import { createTs2Server } from "../peers/ts2/server.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import { summarise, wireSteps, type SessionSummary } from "./summary.js";

/** ts2: served by serveStdio (both eras); ts2-plain: McpServer.connect() alone, with
 *  supportedProtocolVersions naming 2026-07-28 too; ts1: the lab's ts1 server. */
export type ServerPeer = "ts1" | "ts2" | "ts2-plain";
export const SERVER_CLOSE_BOUND_MS = 10_000;

export interface RunRecord {
  label: string;
  protocolVersion: string | undefined;
  errors: string[];
  summary: SessionSummary;
  events: TimelineEvent[];
  wire: WireFrame[];
}

const serverError = (rec: Recorder) => (error: Error) => rec.event("server", "sdk.error", { detail: { message: error.message } });

/** The v2 client (runTs2Session) against a ts1 or ts2 server, in memory. */
export async function ts2ClientRun(plan: SessionPlan, server: ServerPeer, negotiation: Negotiation, loop: LoopModel = "sdk"): Promise<RunRecord> {
  const rec = new Recorder();
  // serial: the lab's model of a receive loop that awaits each inbound request's handler (receive-loop.ts)
  const pair = createLinkedPair(rec, loop);
  let closeServer: () => Promise<unknown>;
  if (server === "ts2") {
    const handle = serveTs2(pair.server, serverError(rec));
    closeServer = () => handle.close();
  } else if (server === "ts2-plain") {
    const mcp = createTs2Server({ supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS, "2026-07-28"] });
    mcp.server.onerror = serverError(rec);
    await mcp.connect(pair.server);
    closeServer = () => mcp.close();
  } else {
    const mcp = createCalculateServer();
    mcp.server.onerror = serverError(rec);
    await mcp.connect(pair.server);
    closeServer = () => mcp.close();
  }
  let outcome: Ts2SessionOutcome;
  try {
    outcome = await runTs2Session(plan, pair.client, rec, { negotiation });
  } finally {
    await withBound(closeServer(), SERVER_CLOSE_BOUND_MS, `closing the ${server} server`);
  }
  const label = `ts2 client (${negotiation}${loop === "sdk" ? "" : `, ${loop} loop`}) -> ${server} server: ${plan.scenario}`;
  return { label, protocolVersion: outcome.protocolVersion, errors: outcome.errors, summary: summarise(rec.events, rec.wire), events: rec.events, wire: rec.wire };
}

/** The ts1 Client, driven by the lab's own session runner (lab/session/session.ts), against the v2 server. */
export async function ts1ClientRun(scenario: Scenario): Promise<RunRecord> {
  const open: OpenTransport = async (recorder) => {
    const pair = linkedEnds(recorder);
    const handle = serveTs2(pair.server, serverError(recorder));
    return {
      client: pair.client,
      close: async () => {
        await handle.close();
        return { kind: "memory" as const };
      },
    };
  };
  const evidence = await runSession(scenario, open, "memory", { loop: "sdk" });
  return {
    label: `ts1 client -> ts2 server: ${scenario.name}`,
    protocolVersion: initializeVersion(evidence.wire),
    errors: evidence.errors,
    summary: summarise(evidence.events, evidence.wire),
    events: evidence.events,
    wire: evidence.wire,
  };
}

/** The version in the server's initialize result, as it crossed the wire. */
export function initializeVersion(wire: readonly WireFrame[]): string | undefined {
  const init = wire.find((f) => f.from === "client" && (f.message as { method?: string }).method === "initialize");
  const id = (init?.message as { id?: unknown } | undefined)?.id;
  const reply = wire.find((f) => f.from === "server" && (f.message as { id?: unknown; method?: string }).id === id && !("method" in f.message));
  return ((reply?.message as { result?: { protocolVersion?: string } } | undefined)?.result)?.protocolVersion;
}

/** A ts1 Client scenario for a v2-only tool; `recovery` calls calculate_input and accepts 3, 7. */
export function ts1Scenario(name: string, tool: string, callback: Behaviour, args: Record<string, unknown> = {}): Scenario {
  return {
    name,
    summary: `ts1 client calls ${tool}`,
    capabilities: { elicitation: { form: {} } },
    listToolsFirst: true,
    calls: [
      { label: "first", tool, args, callback },
      { label: "recovery", tool: "calculate_input", args: {}, callback: ACCEPT_VALID },
    ],
  };
}

export function printRun(run: RunRecord, extra: { wire?: boolean } = {}): void {
  const s = run.summary;
  console.log(`\n## ${run.label}`);
  console.log(`  negotiated: ${run.protocolVersion ?? "(none)"}${run.errors.length ? `   session errors: ${run.errors.join(" | ")}` : ""}`);
  for (const [call, result] of Object.entries(s.results)) console.log(`  ${call} (${s.callMs[call]} ms): ${JSON.stringify(result)}`);
  console.log(`  callbacks: ${s.callbacks}, peak at once: ${s.peakCallbacks}; server->client requests: ${JSON.stringify(s.serverToClientRequests)}`);
  if (s.nested.length) console.log(`  nested: ${s.nested.join("; ")}`);
  if (s.rounds.length) console.log(`  rounds: ${s.rounds.join("; ")}`);
  if (extra.wire) for (const step of wireSteps(run.wire)) console.log(`    ${step}`);
}
