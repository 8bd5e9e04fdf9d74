// tsx lab/run.ts soak [--runs N] [--transport <name>|both] [--dispatch sdk|serial|both] [--load K] [--out DIR]
// Runs the whole scenario matrix N times (every scenario under each dispatch model, and nested
// under serial with --on-deadlock break), optionally while K busy worker threads that the lab
// starts keep K cores busy, and counts per check how often it failed. A tool to show that every
// check holds on a busy machine; not part of `npm test`. Failing runs keep their evidence in
// the output folder (default run-output/soak/). Exit 0 when nothing failed, 1 otherwise.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { existingFolder, splitEquals, UsageError, valueOf, wholeNumber } from "../cli/args.js";
import { ensureWritableFolder, RUN_OUTPUT_DIR, runOutputPath, shown, writeJsonAtomic } from "../cli/output.js";
import { loadExpectation } from "../check/expectations.js";
import { DISPATCH_MODELS, type DispatchModel, type OnDeadlock } from "../history/receive-loop.js";
import { runCase, type CaseReport } from "../session/pipeline.js";
import { SESSION_BOUND_MS, TRANSPORT_CLOSE_BOUND_MS } from "../plan/bounds.js";
import { TRANSPORT_NAMES } from "../transports/index.js";
import { TS1_SERVER } from "../peers/ts1/index.js";
import { assertPinnedSdk, readVersions } from "../peers/versions.js";
import { SCENARIOS } from "../../scenarios/index.js";
import { startLoad } from "./load.js";
import { tally, tallyLines, type Tally } from "./tally.js";

export const SOAK_USAGE = `usage: tsx lab/run.ts soak [--runs N] [--transport <name>|both] [--dispatch sdk|serial|both] [--load K] [--out DIR] [--expected DIR]

Runs the scenario matrix N times: every scenario under each dispatch model, and nested under
serial with --on-deadlock break, one fresh session per transport. Prints one line per pass,
then how often each check failed, then a last line "N passed, N failed" counting every
session and every memory/stdio parity comparison. Not part of npm test.

  --runs N         passes over the matrix (default 10, 1 to 1000)
  --transport T    memory, stdio or both (default memory)
  --dispatch D     sdk, serial or both (default both)
  --load K         K worker threads, each keeping one core busy while the soak runs (default 0,
                   at most 16); each stops by itself if the lab stops renewing its lease, and the
                   lab stops them by their handles at the end
  --out DIR        where failing runs keep their evidence (default run-output/soak/)
  --expected DIR   read expectations from DIR instead of expected/`;

export interface SoakOptions {
  runs: number;
  transports: string[];
  dispatch: DispatchModel[];
  load: number;
  outDir: string | undefined;
  expectedDir: string | undefined;
}

export function parseSoakArgs(argv: string[]): SoakOptions | "help" {
  const options: SoakOptions = { runs: 10, transports: ["memory"], dispatch: [...DISPATCH_MODELS], load: 0, outDir: undefined, expectedDir: undefined };
  const names = TRANSPORT_NAMES();
  argv = splitEquals(argv);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return "help";
    if (arg === "--runs") options.runs = wholeNumber(arg, valueOf(argv, i++, arg), 1, 1000);
    else if (arg === "--load") options.load = wholeNumber(arg, valueOf(argv, i++, arg), 0, 16);
    else if (arg === "--out") options.outDir = valueOf(argv, i++, arg);
    else if (arg === "--expected") options.expectedDir = existingFolder(arg, valueOf(argv, i++, arg));
    else if (arg === "--transport") {
      const v = valueOf(argv, i++, arg);
      if (v === "both") options.transports = [...names];
      else if (names.includes(v)) options.transports = [v];
      else throw new UsageError(`--transport must be ${names.join(", ")} or both, not '${v}'`);
    } else if (arg === "--dispatch") {
      const v = valueOf(argv, i++, arg);
      if (v === "both") options.dispatch = [...DISPATCH_MODELS];
      else if ((DISPATCH_MODELS as readonly string[]).includes(v)) options.dispatch = [v as DispatchModel];
      else throw new UsageError(`--dispatch must be sdk, serial or both, not '${v}'`);
    } else throw new UsageError(`soak: unknown ${arg.startsWith("-") ? "option" : "argument"} '${arg}'`);
  }
  return options;
}

interface MatrixItem {
  name: string;
  scenario: (typeof SCENARIOS)[number];
  dispatch: DispatchModel;
  onDeadlock: OnDeadlock;
}

function matrix(dispatch: DispatchModel[]): MatrixItem[] {
  const items: MatrixItem[] = [];
  for (const scenario of SCENARIOS) {
    for (const d of dispatch) {
      items.push({ name: `${scenario.name} · ${d}`, scenario, dispatch: d, onDeadlock: "wait" });
      // nested under serial has a second expectation: the cycle broken at detection
      if (scenario.name === "nested" && d === "serial") items.push({ name: `${scenario.name} · ${d} · break`, scenario, dispatch: d, onDeadlock: "break" });
    }
  }
  return items;
}

export async function main(argv: string[]): Promise<number> {
  const options = parseSoakArgs(argv);
  if (options === "help") {
    console.log(SOAK_USAGE);
    return 0;
  }
  const versions = readVersions();
  assertPinnedSdk(versions);
  const items = matrix(options.dispatch);
  // Every expectation is read, and the output folder checked, before anything runs.
  const work = items.map((item) => ({ ...item, expectation: loadExpectation(item.scenario.name, item.dispatch, item.onDeadlock, options.expectedDir) }));
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
          item.dispatch,
          { transports: options.transports, repeat: 1, onDeadlock: item.onDeadlock, expectedDir: options.expectedDir },
          versions,
          item.expectation,
        );
        const units = tally(counts, item.name, report);
        passed += units.passed;
        failed += units.failed;
        passFailed += units.failed;
        if (!report.ok) {
          // the evidence of a failure is kept whole, one file per failing case and pass
          const file = runOutputPath(outDir, `pass-${pass}.${item.scenario.name}`, item.dispatch, item.onDeadlock === "break" ? ".break" : "");
          writeJsonAtomic(file, report);
          kept.push(file);
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
  console.log(["", ...tallyLines(counts)].join("\n"));
  if (kept.length) console.log(`\nevidence of the ${kept.length} failing case run(s): ${shown(outDir)}/pass-<n>.<scenario>.<dispatch>.json`);
  console.log(`\nwall time ${wall.toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}
