// The lab's command line: tsx lab/run.ts <scenario|all|list|bench> [options]
// Exit 0 when every expectation holds, 1 when one fails, 2 on bad usage.
import { parseArgs, USAGE, UsageError, type RunArgs } from "./cli/args.js";
import { ExpectationError } from "./check/expectations.js";
import { planMatrix } from "./cli/matrix.js";
import { compareModelWithReal, renderModelVerdict, storyFacts, type ModelVerdict } from "./check/model-vs-real.js";
import { join } from "node:path";
import { RUN_OUTPUT_DIR, runOutputPath, writeJsonAtomic } from "./cli/output.js";
import { writeIndexPage } from "./cli/index-page.js";
import { runCase, type CaseReport } from "./session/pipeline.js";
import { renderRun, renderSummary } from "./render/report.js";
import { wantsColor } from "./render/swimlane.js";
import { writeRunSvgs } from "./render/svg.js";
import { TRANSPORT_NAMES } from "./transports/index.js";
import { assertPinnedSdk, readVersions, VersionMismatch } from "./peers/versions.js";
import { findScenario, SCENARIOS } from "../scenarios/index.js";
import type { Scenario } from "./session/scenario.js";

type Command = (argv: string[]) => Promise<number>;

/** Commands other than running scenarios. Each returns its exit code. */
const COMMANDS: Record<string, Command> = {
  list: async () => {
    for (const s of SCENARIOS) console.log(`${s.name.padEnd(16)} ${s.summary}`);
    return 0;
  },
  card: async (argv) => (await import("./cli/card.js")).main(argv),
  peers: async (argv) => (await import("./cli/peers.js")).main(argv),
  bench: async (argv) => (await import("./bench/index.js")).main(argv),
  notebooks: async (argv) => (await import("./notebooks/index.js")).main(argv),
  contract: async (argv) => (await import("./cli/contract.js")).main(argv),
};

async function runScenarios(args: RunArgs): Promise<number> {
  const versions = readVersions();
  assertPinnedSdk(versions);
  const scenarios: Scenario[] = args.target === "all" ? [...SCENARIOS] : [findScenario(args.target)!];
  // Load every expectation before running anything: a malformed file is a usage error.
  const matrix = planMatrix({ ...args, scenarios, all: args.target === "all" });
  for (const line of matrix.unavailable) console.error(`not run: ${line}`);
  const color = !args.json && wantsColor(process.stdout);
  const outDir = args.outDir ?? RUN_OUTPUT_DIR;
  const reports: CaseReport[] = [];
  for (const { scenario, column, expectation } of matrix.work) {
    const report = await runCase(
      scenario,
      column.loop,
      { client: column.client, server: column.server, transports: args.transports, repeat: args.repeat, onDeadlock: args.onDeadlock, expectedDir: args.expectedDir },
      versions,
      expectation,
    );
    const suffix = args.onDeadlock === "break" ? ".break" : "";
    // Written before anything is judged, so a failing run keeps its evidence.
    writeJsonAtomic(runOutputPath(outDir, scenario.name, report.column, suffix), report);
    writeRunSvgs(outDir, report, suffix);
    reports.push(report);
    if (!args.json) for (const run of report.runs) console.log(`${renderRun(report, run, color)}\n`);
  }
  const model = modelCheck(reports);
  if (model) writeJsonAtomic(join(outDir, "model-vs-real.json"), model);
  // The page lists every run in the folder, this command's and earlier ones'.
  writeIndexPage(outDir);
  if (args.json) console.log(JSON.stringify(reports.map(jsonSummary), null, 2));
  else console.log(`${renderSummary(reports, color)}${model ? `\n\n${renderModelVerdict(model)}` : ""}`);
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

function jsonSummary(report: CaseReport) {
  return {
    scenario: report.scenario,
    client: report.client,
    server: report.server,
    dispatch: report.dispatch,
    ok: report.ok,
    runs: report.runs.map((run) => ({
      transport: run.transport,
      repeat: run.repeat,
      ok: run.ok,
      durationMs: run.durationMs,
      failed: run.verdicts.filter((v) => !v.ok),
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
      console.error(`error: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ExpectationError || error instanceof VersionMismatch) {
      console.error(`error: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv.slice(2));
}
