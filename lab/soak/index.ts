// tsx lab/run.ts soak [--runs N] [--transport <name>|all|both] [--loop sdk|serial|both] [--load K] [--scenario NAMES] [--out DIR]
// Runs the whole scenario matrix N times (every scenario under each loop model, and nested
// under serial with --on-deadlock break), optionally while K busy worker threads that the lab
// starts keep K cores busy, and counts per check how often it failed. A tool to show that every
// check holds on a busy machine; not part of `npm test`. Failing runs keep their evidence in
// the output folder (default run-output/soak/). Exit 0 when nothing failed, 1 otherwise.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { read, type Parsed } from "../cli/args.js";
import { ensureWritableFolder, RUN_OUTPUT_DIR, runOutputPath, shown, writeJsonAtomic } from "../cli/output.js";
import { loadExpectation } from "../check/expectations.js";
import { LOOP_MODELS, type LoopModel, type OnDeadlock } from "../history/receive-loop.js";
import { runCase, type CaseReport } from "../session/pipeline.js";
import { SESSION_BOUND_MS, TRANSPORT_CLOSE_BOUND_MS } from "../plan/bounds.js";
import { TS1_SERVER } from "../peers/ts1/index.js";
import { assertPinnedSdk, readVersions } from "../peers/versions.js";
import { findScenario, SCENARIOS } from "../../scenarios/index.js";
import { startLoad } from "./load.js";
import { tally, tallyLines, type Tally } from "./tally.js";
import { repeatedSessions } from "../session/attempts.js";
import { renderRepeated } from "../render/repeated.js";
import type { RepeatedSession } from "../plan/session.js";

export interface SoakOptions {
  runs: number;
  transports: string[];
  loops: LoopModel[];
  load: number;
  /** only these scenarios; undefined: every one */
  scenarios: string[] | undefined;
  outDir: string | undefined;
  expectedDir: string | undefined;
}

/** The soak's options, from a parse against its spec (lab/cli/commands.ts). */
export function soakOptions(args: Parsed): SoakOptions {
  return {
    runs: read.whole(args, "runs") ?? 10,
    transports: read.list(args, "transport") ?? ["memory"],
    loops: read.loops(args, "loop") ?? [...LOOP_MODELS],
    load: read.whole(args, "load") ?? 0,
    scenarios: read.list(args, "scenario"),
    outDir: read.text(args, "out"),
    expectedDir: read.text(args, "expected"),
  };
}

interface MatrixItem {
  name: string;
  scenario: (typeof SCENARIOS)[number];
  loop: LoopModel;
  onDeadlock: OnDeadlock;
}

function matrix(loops: LoopModel[], names: string[] | undefined): MatrixItem[] {
  const items: MatrixItem[] = [];
  for (const scenario of SCENARIOS.filter((s) => !names || names.includes(s.name))) {
    for (const d of loops) {
      items.push({ name: `${scenario.name} · ${d}`, scenario, loop: d, onDeadlock: "wait" });
      // nested under serial has a second expectation: the cycle broken at detection
      if (scenario.name === "nested" && d === "serial") items.push({ name: `${scenario.name} · ${d} · break`, scenario, loop: d, onDeadlock: "break" });
    }
  }
  return items;
}

export async function main(args: Parsed): Promise<number> {
  const options = soakOptions(args);
  const versions = readVersions();
  assertPinnedSdk(versions);
  const unknown = options.scenarios?.filter((name) => !findScenario(name)) ?? [];
  if (unknown.length) {
    console.error(`error: soak --scenario: no scenario named ${unknown.join(", ")} (see \`list\`)`);
    return 2;
  }
  const items = matrix(options.loops, options.scenarios);
  // Every expectation is read, and the output folder checked, before anything runs.
  const work = items.map((item) => ({ ...item, expectation: loadExpectation(item.scenario.name, item.loop, item.onDeadlock, options.expectedDir) }));
  const outDir = ensureWritableFolder(options.outDir ?? join(RUN_OUTPUT_DIR, "soak"));
  // Builds happen once before the first pass, never inside a session's timeline.
  if (options.transports.includes("stdio")) await TS1_SERVER.child?.prepare?.();

  const sessionsPerPass = items.length * options.transports.length;
  console.log(
    `soak: ${options.runs} pass${options.runs === 1 ? "" : "es"} over ${items.length} cases x ${options.transports.join("+")} = ${sessionsPerPass} sessions each` +
      `; load: ${options.load ? `${options.load} busy worker thread${options.load === 1 ? "" : "s"} started by the lab` : "none started by the lab"}`,
  );
  // Bounded: no pass can outlast every session's own bound, so neither can the load.
  const bound = options.runs * sessionsPerPass * (SESSION_BOUND_MS + TRANSPORT_CLOSE_BOUND_MS);
  const load = options.load > 0 ? startLoad(options.load, { boundMs: bound }) : undefined;
  const counts: Tally = new Map();
  const kept: string[] = [];
  const repeated: RepeatedSession[] = [];
  let passed = 0;
  let failed = 0;
  const started = performance.now();
  try {
    await load?.started();
    for (let pass = 1; pass <= options.runs; pass++) {
      const passStart = performance.now();
      let passFailed = 0;
      for (const item of work) {
        const report: CaseReport = await runCase(
          item.scenario,
          item.loop,
          { transports: options.transports, repeat: 1, onDeadlock: item.onDeadlock, expectedDir: options.expectedDir },
          versions,
          item.expectation,
        );
        const units = tally(counts, item.name, report);
        passed += units.passed;
        failed += units.failed;
        passFailed += units.failed;
        const again = repeatedSessions(report.runs, (run) => `pass ${pass} · ${item.name} · ${run.transport}`);
        repeated.push(...again);
        if (!report.ok || again.length > 0) {
          // the evidence of a failure, or of a repeated session (every attempt), is kept whole, one file per case and pass
          const file = runOutputPath(outDir, `pass-${pass}.${item.scenario.name}`, item.loop, item.onDeadlock === "break" ? ".break" : "");
          writeJsonAtomic(file, report);
          if (!report.ok) kept.push(file);
        }
      }
      const seconds = ((performance.now() - passStart) / 1000).toFixed(1);
      console.log(`pass ${pass}/${options.runs}: ${passFailed === 0 ? "every check held" : `${passFailed} failed`} (${seconds} s)`);
    }
  } finally {
    const stopped = await load?.stop();
    if (stopped) console.log(`load: ${stopped.workers} worker thread(s) stopped by their handles${stopped.stuck ? `, ${stopped.stuck} did not exit in time` : ""}`);
  }
  const wall = (performance.now() - started) / 1000;
  console.log(["", ...tallyLines(counts), ...renderRepeated(repeated)].join("\n"));
  if (kept.length || repeated.length) console.log(`\nevidence of the ${kept.length} failing case run(s) and of every repeated session: ${shown(outDir)}/pass-<n>.<scenario>.<loop>.json`);
  console.log(`\nwall time ${wall.toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}
