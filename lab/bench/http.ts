// What HTTP costs: one tools/call round trip (with its elicitation) through the lab's recording
// transport over a real HTTP server in this process, next to the lab's in-memory pair; and an
// HTTP child's spawn to its first initialize result, next to the stdio child's. Medians, measured
// side by side in one run (interleaved, so load hits both alike), never asserted in tests.
//   npx tsx lab/bench/http.ts
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { median } from "../check/stats.js";
import { Recorder } from "../history/timeline.js";
import { VALID_ANSWER } from "../plan/form.js";
import { ensureChildBuilt } from "../peers/ts1/child-build.js";
import { createCalculateServer } from "../peers/ts1/calculate-server.js";
import { runSession } from "../session/session.js";
import { lifecycleProblems } from "../transports/child-process.js";
import { httpProblems } from "../transports/http-log.js";
import { httpOf, serverChildOf } from "../plan/evidence.js";
import { serveStreamableHttp } from "../transports/http-server.js";
import { endpointUrl, HttpCarrier, openHttpTransport } from "../transports/http.js";
import { createLinkedPair } from "../transports/linked.js";
import { ObservedTransport } from "../transports/observed.js";
import { openStdioTransport } from "../transports/stdio.js";
import { freshServer } from "../transports/forked.js";
import { TS1_SERVER } from "../peers/ts1/index.js";
import fixedFixture from "../../scenarios/fixed-fixture.js";

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

interface Stack {
  client: Transport;
  server: Transport;
  stop(): Promise<void>;
}

const memoryStack = async (): Promise<Stack> => {
  const pair = createLinkedPair(new Recorder(), "sdk");
  return { client: pair.client, server: pair.server, stop: async () => undefined };
};

const httpStack = async (): Promise<Stack> => {
  const http = await serveStreamableHttp();
  const recorder = new Recorder();
  const carrier = new HttpCarrier(async () => endpointUrl(http.port), recorder);
  return {
    client: new ObservedTransport("client", carrier, recorder),
    server: new ObservedTransport("server", http.transport, new Recorder()),
    stop: () => http.close(),
  };
};

/** ms of each of `calls` tools/call round trips over one session (each with its elicitation). */
async function callTimes(stack: () => Promise<Stack>, calls: number): Promise<number[]> {
  const { client: clientTransport, server: serverTransport, stop } = await stack();
  const mcp = createCalculateServer();
  const client = new Client({ name: "bench", version: "0" }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { ...VALID_ANSWER } }));
  await mcp.connect(serverTransport);
  await client.connect(clientTransport);
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    const result = await client.callTool({ name: "calculate", arguments: {} });
    times.push(performance.now() - start);
    if ((result.structuredContent as { value?: unknown } | undefined)?.value !== 21) throw new Error("bench call did not compute 21");
  }
  await client.close();
  await mcp.close();
  await stop();
  return times;
}

/** Median round trip of one tools/call: HTTP in this process vs the in-memory pair. */
export async function benchHttpRoundTrip(calls = 300, rounds = 5): Promise<{ httpMs: number; memoryMs: number; ratio: number }> {
  const per = Math.ceil(calls / rounds);
  await callTimes(memoryStack, 20);
  await callTimes(httpStack, 20);
  const http: number[] = [];
  const memory: number[] = [];
  for (let r = 0; r < rounds; r++) {
    memory.push(...(await callTimes(memoryStack, per)));
    http.push(...(await callTimes(httpStack, per)));
  }
  const httpMs = median(http);
  const memoryMs = median(memory);
  return { httpMs: round(httpMs), memoryMs: round(memoryMs), ratio: round(httpMs / memoryMs, 1) };
}

/** Spawn to initialize result, read from real fixed-fixture sessions over http and over stdio (a fresh child each). */
export async function benchHttpChild(children = 10): Promise<{ httpMs: number; stdioMs: number; ratio: number }> {
  await ensureChildBuilt(); // a rebuild is not part of any measurement
  const one = async (transport: "http" | "stdio") => {
    // both fresh processes: a stdio session of the child's host would start no process at all
    const run = await runSession(fixedFixture, transport === "http" ? openHttpTransport : openStdioTransport, transport, { loop: "sdk", server: freshServer(TS1_SERVER) });
    const child = serverChildOf(run.transportEvidence);
    const http = httpOf(run.transportEvidence);
    const problems = [...run.errors, ...lifecycleProblems(run.transportEvidence), ...(http ? httpProblems(http) : [])];
    if (problems.length || child?.spawnToInitializedMs === undefined) throw new Error(`bench ${transport} child failed: ${problems.join("; ")}`);
    return child.spawnToInitializedMs;
  };
  await one("http");
  await one("stdio");
  const http: number[] = [];
  const stdio: number[] = [];
  for (let i = 0; i < children; i++) {
    http.push(await one("http"));
    stdio.push(await one("stdio"));
  }
  const httpMs = median(http);
  const stdioMs = median(stdio);
  return { httpMs: round(httpMs, 1), stdioMs: round(stdioMs, 1), ratio: round(httpMs / stdioMs, 2) };
}

export async function benchHttp(): Promise<string[]> {
  const trip = await benchHttpRoundTrip();
  const child = await benchHttpChild();
  return [
    `one tools/call round trip (with its elicitation), median: HTTP in this process ${trip.httpMs} ms vs the in-memory pair ${trip.memoryMs} ms: ${trip.ratio}x`,
    `HTTP child, spawn -> initialize result, median: ${child.httpMs} ms vs the stdio child (fresh) ${child.stdioMs} ms: ${child.ratio}x`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  benchHttp().then(
    (lines) => console.log(lines.join("\n")),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
