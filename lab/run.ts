// The lab's command line: tsx lab/run.ts <scenario|all|list|contract|vocabulary|notebooks|bench|soak> [options]
// Exit 0 when every expectation holds, 1 when one fails, 2 on bad usage or when the run output
// cannot be written (one line, never a stack trace).
import { join } from "node:path";
import { parseArgs, USAGE, UsageError, type RunArgs } from "./cli/args.js";
import { ExpectationError } from "./check/expectations.js";
import { compareModelWithReal, renderModelVerdict, storyFacts, type ModelVerdict } from "./check/model-vs-real.js";
import { writeIndexPage } from "./cli/index-page.js";
import { planMatrix } from "./cli/matrix.js";
import { defaultOutDir, ensureWritableFolder, OutputError, runOutputPath, shown, writeJsonAtomic } from "./cli/output.js";
import { runCase, type CaseReport } from "./session/pipeline.js";
import { renderRun, renderSummary, runLine } from "./render/report.js";
import { wantsColor } from "./render/swimlane.js";
import { svgFileName, writeRunSvgs } from "./render/svg.js";
import { TRANSPORT_NAMES } from "./transports/index.js";
import { assertPinnedSdk, readVersions, VersionMismatch } from "./peers/versions.js";
import { findScenario, SCENARIOS } from "../scenarios/index.js";
import type { Scenario } from "./session/scenario.js";

type Command = (argv: string[]) => Promise<number>;

/** Commands other than running scenarios. Each returns its exit code. */
const COMMANDS: Record<string, Command> = {
  list: async (argv) => {
    if (argv.includes("--help") || argv.includes("-h")) {
      console.log("usage: tsx lab/run.ts list\n\nPrints every scenario and what it shows.");
      return 0;
    }
    if (argv.length) throw new UsageError(`list takes no arguments, not ${argv.join(" ")}`);
    for (const s of SCENARIOS) console.log(`${s.name.padEnd(16)} ${s.summary}`);
    return 0;
  },
  bench: async (argv) => (await import("./bench/index.js")).main(argv),
  notebooks: async (argv) => (await import("./notebooks/index.js")).main(argv),
  contract: async (argv) => (await import("./cli/contract.js")).main(argv),
  vocabulary: async (argv) => (await import("./cli/vocabulary-table.js")).main(argv),
  soak: async (argv) => (await import("./soak/index.js")).main(argv),
  card: async (argv) => (await import("./cli/card.js")).main(argv),
  peers: async (argv) => (await import("./cli/peers.js")).main(argv),
  serve: async (argv) => (await import("./cli/serve.js")).main(argv),
};

async function runScenarios(args: RunArgs): Promise<number> {
  const versions = readVersions();
  assertPinnedSdk(versions);
  const scenarios: Scenario[] = args.target === "all" ? [...SCENARIOS] : [findScenario(args.target)!];
  // Load every expectation before running anything: a malformed file is a usage error.
  const matrix = planMatrix({ ...args, scenarios, all: args.target === "all" });
  for (const line of matrix.unavailable) console.error(`not run: ${line}`);
  for (const s of scenarios) {
    const skipped = s.notOver?.transports.filter((t) => args.transports.includes(t)) ?? [];
    if (skipped.length) console.error(`not run: ${s.name} over ${skipped.join(", ")}: ${s.notOver!.why}`);
  }
  const color = !args.json && wantsColor(process.stdout);
  // `all` says one line per run; --verbose (or one scenario) shows each run's swimlane and checks.
  const oneLine = args.target === "all" && !args.verbose;
  // A folder that cannot take the output is a usage error found before any session runs.
  const outDir = ensureWritableFolder(args.outDir ?? defaultOutDir(args.expectedDir));
  const reports: CaseReport[] = [];
  const written: string[] = [];
  for (const { scenario, column, expectation } of matrix.work) {
    const report = await runCase(
      scenario,
      column.loop,
      { client: column.client, server: column.server, transports: args.transports, repeat: args.repeat, onDeadlock: args.onDeadlock, expectedDir: args.expectedDir },
      versions,
      expectation,
    );
    const suffix = args.onDeadlock === "break" ? ".break" : "";
    reports.push(report);
    // Written before anything is judged, so a failing run keeps its evidence. If the write
    // fails anyway, the run is still printed (what ran is not lost) before the one-line error.
    let saved = false;
    try {
      const file = runOutputPath(outDir, scenario.name, report.column, suffix);
      writeJsonAtomic(file, report);
      written.push(file, ...writeRunSvgs(outDir, report, suffix));
      saved = true;
    } finally {
      if (!args.json) for (const run of report.runs) console.log(oneLine ? runLine(report, run, color) : `${renderRun(report, run, color)}\n`);
      else if (!saved) console.log(JSON.stringify(reports.map((r) => jsonSummary(r, outDir)), null, 2));
    }
  }
  const model = modelCheck(reports);
  if (model) writeJsonAtomic(join(outDir, "model-vs-real.json"), model);
  // The page lists every run in the folder, this command's and earlier ones'.
  writeIndexPage(outDir);
  if (args.json) console.log(JSON.stringify(reports.map((r) => jsonSummary(r, outDir)), null, 2));
  else console.log(`${renderSummary(reports, color, { outDir: shown(outDir), files: written.map((f) => shown(f)) }, oneLine)}${model ? `\n\n${renderModelVerdict(model)}` : ""}`);
  return reports.every((r) => r.ok) && (model?.ok ?? true) ? 0 : 1;
}

/** When nested ran both under the serial model and on py-inline (same server, same transport). */
function modelCheck(reports: CaseReport[]): ModelVerdict | undefined {
  const nested = reports.filter((r) => r.scenario === "nested" && r.onDeadlock === "wait");
  for (const model of nested.filter((r) => r.client === "ts1" && r.dispatch === "serial")) {
    const real = nested.find((r) => r.client === "py-inline" && r.server === model.server);
    const a = model.runs.find((run) => real?.runs.some((r) => r.transport === run.transport));
    const b = a && real?.runs.find((run) => run.transport === a.transport);
    if (a && b) return compareModelWithReal(storyFacts(a), storyFacts(b));
  }
  return undefined;
}

function jsonSummary(report: CaseReport, outDir: string) {
  const suffix = report.onDeadlock === "break" ? ".break" : "";
  return {
    scenario: report.scenario,
    client: report.client,
    server: report.server,
    dispatch: report.dispatch,
    onDeadlock: report.onDeadlock,
    ok: report.ok,
    output: {
      report: runOutputPath(outDir, report.scenario, report.column, suffix),
      svgs: report.runs.map((run) => join(outDir, svgFileName(report.scenario, report.column, suffix, run.transport, run.repeat))),
    },
    runs: report.runs.map((run) => ({
      transport: run.transport,
      repeat: run.repeat,
      ok: run.ok,
      durationMs: run.durationMs,
      failed: run.verdicts.filter((v) => !v.ok),
    })),
    parity: report.parity.map((p) => ({
      repeat: p.repeat,
      transport: p.transport,
      ok: p.ok,
      allowed: p.allowed,
      client: { ok: p.result.ok, firstDifference: p.result.firstDifference ?? null },
      server: p.server === null ? null : { ok: p.server.ok, firstDifference: p.server.firstDifference ?? null },
    })),
  };
}

export async function main(argv: string[]): Promise<number> {
  try {
    const command = argv[0] !== undefined ? COMMANDS[argv[0]] : undefined;
    if (command) return await command(argv.slice(1));
    if (argv.includes("--help") || argv.includes("-h")) {
      console.log(USAGE);
      return 0;
    }
    const args = parseArgs(argv, TRANSPORT_NAMES());
    if (args.rest.length) throw new UsageError(`unknown option ${args.rest.join(", ")}`);
    if (args.target !== "all" && !findScenario(args.target)) {
      throw new UsageError(`unknown scenario '${args.target}'. Valid: ${[...SCENARIOS.map((s) => s.name), "all", ...Object.keys(COMMANDS)].join(", ")}`);
    }
    return await runScenarios(args);
  } catch (error) {
    if (error instanceof UsageError) {
      // One line: what is wrong, and where the usage is.
      const command = argv[0] !== undefined && COMMANDS[argv[0]] ? `${argv[0]} ` : "";
      console.error(`error: ${error.message} (usage: tsx lab/run.ts ${command}--help)`);
      return 2;
    }
    if (error instanceof ExpectationError || error instanceof VersionMismatch || error instanceof OutputError) {
      console.error(`error: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // Interrupted or terminated: leave through process.exit so that the exit handlers run (stdio
  // children killed by their handles, the children's event files removed).
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) process.once(signal, () => process.exit(code));
  process.exitCode = await main(process.argv.slice(2));
}
