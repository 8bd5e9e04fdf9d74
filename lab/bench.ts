// Benchmarks: ratios measured side by side in one run, never asserted in tests.
//   tsx lab/run.ts bench            (or tsx lab/bench.ts)
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { createCalculateServer } from "./calculate-server.js";
import { VALID_ANSWER } from "./form.js";
import { createLinkedPair } from "./linked-transport.js";
import { openMemoryTransport } from "./memory-transport.js";
import { runSession } from "./session.js";
import { Recorder } from "./timeline.js";
import fixedFixture from "../scenarios/fixed-fixture.js";

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Median wall time of one whole in-memory fixed-fixture session under `sdk`, after warm-up. */
export async function benchSession(warmup = 5, samples = 30): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < warmup + samples; i++) {
    const start = performance.now();
    const evidence = await runSession(fixedFixture, openMemoryTransport, "memory", { dispatch: "sdk" });
    if (evidence.errors.length) throw new Error(`bench session failed: ${evidence.errors.join("; ")}`);
    if (i >= warmup) times.push(performance.now() - start);
  }
  return median(times);
}

type PairFactory = () => [Transport, Transport];

const bare: PairFactory = () => InMemoryTransport.createLinkedPair();
const instrumented: PairFactory = () => {
  const pair = createLinkedPair(new Recorder(), "sdk");
  return [pair.client, pair.server];
};

/** ms for `calls` tools/call round trips (each with its elicitation) over one session. */
async function roundTrips(makePair: PairFactory, calls: number): Promise<number> {
  const [clientTransport, serverTransport] = makePair();
  const mcp = createCalculateServer();
  const client = new Client({ name: "bench", version: "0" }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { ...VALID_ANSWER } }));
  await mcp.connect(serverTransport);
  await client.connect(clientTransport);
  const start = performance.now();
  for (let i = 0; i < calls; i++) {
    const result = await client.callTool({ name: "calculate", arguments: {} });
    if ((result.structuredContent as { value?: unknown } | undefined)?.value !== 21) throw new Error("bench call did not compute 21");
  }
  const elapsed = performance.now() - start;
  await client.close();
  await mcp.close();
  return elapsed;
}

/** Instrumented vs bare InMemoryTransport, interleaved in rounds so drift hits both alike. */
export async function benchTransportRatio(calls = 1000, rounds = 5): Promise<{ instrumentedMs: number; bareMs: number; ratio: number }> {
  const per = Math.ceil(calls / rounds);
  await roundTrips(bare, 50);
  await roundTrips(instrumented, 50);
  let bareMs = 0;
  let instrumentedMs = 0;
  for (let r = 0; r < rounds; r++) {
    bareMs += await roundTrips(bare, per);
    instrumentedMs += await roundTrips(instrumented, per);
  }
  return { instrumentedMs: round(instrumentedMs, 1), bareMs: round(bareMs, 1), ratio: round(instrumentedMs / bareMs) };
}

export async function main(_argv: string[] = []): Promise<number> {
  const sessionMs = await benchSession();
  console.log(`in-memory fixed-fixture session (sdk), median after warm-up: ${round(sessionMs, 2)} ms   (goal < 25 ms)`);
  const ratio = await benchTransportRatio();
  console.log(
    `1000 tools/call round trips: instrumented ${ratio.instrumentedMs} ms vs bare InMemoryTransport ${ratio.bareMs} ms: ratio ${ratio.ratio}x   (goal <= 1.3x)`,
  );
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv.slice(2));
}
