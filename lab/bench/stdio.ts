// What a real stdio child costs: spawn-to-initialized next to a bare `node -e 0`, and the wall
// time of a full stdio parity run. Measured side by side in one run, never asserted in tests.
//   npx tsx lab/bench/stdio.ts
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { ensureChildBuilt } from "../peers/ts1/child-build.js";
import { within } from "../transports/child-process.js";
import { openMemoryTransport } from "../transports/memory.js";
import { compareParity } from "../check/parity.js";
import { LOOP_MODELS } from "../history/receive-loop.js";
import { runSession } from "../session/session.js";
import { lifecycleProblems, openStdioTransport } from "../transports/stdio.js";
import { serverChildOf } from "../plan/evidence.js";
import { TS1_SERVER } from "../peers/ts1/index.js";
import { freshServer } from "../transports/forked.js";
import fixedFixture from "../../scenarios/fixed-fixture.js";
import nested from "../../scenarios/nested.js";
import prefetch from "../../scenarios/prefetch.js";
import { median } from "../check/stats.js";

const CHILDREN = 10;
const REPEATS = 2;
const NODE_BOUND_MS = 10_000;

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Wall time of spawning `node -e 0` until it has exited. */
export async function bareNode(): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
  const exited = new Promise<void>((resolve, reject) => {
    child.once("exit", () => resolve());
    child.once("error", reject);
  });
  if (!(await within(exited, NODE_BOUND_MS))) {
    child.kill("SIGKILL");
    throw new Error(`node -e 0 did not exit within ${NODE_BOUND_MS} ms`);
  }
  return performance.now() - start;
}

/** Spawn to initialize result of one child, read from a real (fixed-fixture) session's evidence: a
 *  fresh child, or (hosted) a session of the ts1 child's host as the lab runs it. */
async function childToInitialized(hosted: boolean): Promise<number> {
  const run = await runSession(fixedFixture, openStdioTransport, "stdio", { loop: "sdk", server: hosted ? TS1_SERVER : freshServer(TS1_SERVER) });
  const evidence = serverChildOf(run.transportEvidence);
  const problems = [...run.errors, ...lifecycleProblems(run.transportEvidence)];
  if (problems.length || evidence?.spawnToInitializedMs === undefined) throw new Error(`bench child failed: ${problems.join("; ")}`);
  return evidence.spawnToInitializedMs;
}

/** 3 scenarios x 2 models x REPEATS over stdio, each checked for parity against memory. */
async function parityRun(): Promise<{ wall: number; stdio: number }> {
  const start = performance.now();
  let stdioMs = 0;
  for (let repeat = 1; repeat <= REPEATS; repeat++) {
    for (const scenario of [nested, prefetch, fixedFixture]) {
      for (const loop of LOOP_MODELS) {
        const memory = await runSession(scenario, openMemoryTransport, "memory", { loop }, repeat);
        const stdioStart = performance.now();
        const stdio = await runSession(scenario, openStdioTransport, "stdio", { loop }, repeat);
        stdioMs += performance.now() - stdioStart;
        const parity = compareParity(memory.events, stdio.events);
        if (!parity.ok) throw new Error(`parity broke for ${scenario.name}/${loop}: ${JSON.stringify(parity.firstDifference)}`);
      }
    }
  }
  return { wall: performance.now() - start, stdio: stdioMs };
}

export async function benchStdio(): Promise<Record<string, number>> {
  await ensureChildBuilt(); // a rebuild is not part of any measurement
  await bareNode(); // warm the OS caches for both kinds of spawn alike
  await childToInitialized(false);
  await childToInitialized(true);
  const bare: number[] = [];
  const child: number[] = [];
  const hosted: number[] = [];
  // Interleaved, so load on the machine affects every series alike.
  for (let i = 0; i < CHILDREN; i++) {
    bare.push(await bareNode());
    child.push(await childToInitialized(false));
    hosted.push(await childToInitialized(true));
  }
  const parity = await parityRun();
  const childMedian = median(child);
  const bareMedian = median(bare);
  return {
    children: CHILDREN,
    spawnToInitializedMedianMs: round(childMedian),
    /** a session of the child's host (what the lab runs): request to initialize result */
    hostedToInitializedMedianMs: round(median(hosted)),
    nodeE0MedianMs: round(bareMedian),
    ratio: round(childMedian / bareMedian),
    ratioGoal: 2.5,
    parityRunSessions: 3 * LOOP_MODELS.length * REPEATS,
    /** memory and stdio sessions plus the comparisons */
    parityRunWallMs: round(parity.wall),
    /** the stdio sessions alone */
    parityRunStdioMs: round(parity.stdio),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  benchStdio().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
