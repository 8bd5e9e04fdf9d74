// Running scenarios: `tsx lab/run.ts <scenario|all> [options]`. Every expectation is read and the
// store's folder made before anything runs; each case's report is written as it finishes, so an
// interrupt (interrupted(), called by lab/run.ts's signal handler) keeps what finished.
import { join } from "node:path";
import { type RunArgs } from "./args.js";
import { onInterrupt } from "./interrupt.js";
import { compareModelWithReal, renderModelVerdict, storyFacts, type Comparison, type ModelVerdict } from "../check/model-vs-real.js";
import { writeIndexPage } from "./index-page.js";
import { planMatrix } from "./matrix.js";
import { defaultOutDir, ensureNewReportFile, runOutputPath, shown, writeAtomic, writeJsonAtomic } from "./output.js";
import { openInvocation, writeStoreIndex, type Invocation } from "./store.js";
import { groupNotRun, notRunLines, notRunText } from "./not-run.js";
import { runCase, type CaseReport } from "../session/pipeline.js";
import { slots } from "../session/slots.js";
import { renderRun, renderSummary, runLine } from "../render/report.js";
import { junitCases, renderJunit } from "../render/junit.js";
import { wantsColor } from "../render/swimlane.js";
import { svgFileName } from "../render/svg.js";
import { writeRunSvgs } from "./svg-files.js";
import { assertPinnedSdk, readVersions } from "../peers/versions.js";
import { findScenario, SCENARIOS } from "../../scenarios/index.js";
import type { Scenario } from "../plan/scenario.js";

/** Cases run at once: most of a session is waiting on callbacks and limits, and every check is an
 *  order or a count, never a time. */
const CASES_AT_ONCE = 4;

/** The invocation under way, for the signal handler: what finished is on disk, this says how much. */
let current: { inv: Invocation; done: number; total: number } | undefined;

/** Interrupted: the finished sessions are on disk already; write the pages, say so in one line. */
function interrupted(signal: string): void {
  if (!current) return;
  const { inv, done, total } = current;
  try {
    writeAtomic(join(inv.dir, "interrupted.txt"), `${signal} after ${done} of ${total} cases\n`);
    writeIndexPage(inv.dir);
    writeStoreIndex(inv.root);
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
  }
  console.error(`interrupted after ${done} of ${total} cases; evidence in ${shown(inv.dir)}`);
}

async function runScenarios(args: RunArgs): Promise<number> {
  const versions = readVersions();
  assertPinnedSdk(versions);
  const scenarios: Scenario[] = args.target === "all" ? [...SCENARIOS] : [findScenario(args.target)!];
  // Load every expectation before running anything: a malformed file is a usage error.
  const matrix = planMatrix({ ...args, scenarios, all: args.target === "all" });
  const notRun = [...matrix.unavailable];
  for (const s of scenarios) {
    const skipped = s.notOver?.transports.filter((t) => args.transports.includes(t)) ?? [];
    if (skipped.length) notRun.push({ subject: `${s.name} over ${skipped.join(", ")}`, why: s.notOver!.why });
  }
  const groups = groupNotRun(notRun);
  const lines = notRunLines(groups);
  for (const line of lines) console.error(line);
  const color = !args.json && wantsColor(process.stdout);
  // A folder of its own in the store, made before any session runs (a bad root is exit 2), and the
  // JUnit file checked as well.
  const junit = args.junit === undefined ? undefined : ensureNewReportFile(args.junit, "--junit");
  const inv = openInvocation(args.outDir ?? defaultOutDir(), args.target);
  const outDir = inv.dir;
  if (groups.length) writeAtomic(join(outDir, "not-run.txt"), notRunText(groups));
  if (lines.some((l) => l.endsWith("…"))) console.error(`not run: the full reasons are in ${shown(join(outDir, "not-run.txt"))}`);
  current = { inv, done: 0, total: matrix.work.length };
  // `all` says one line per run; --verbose (or one scenario) shows each run's swimlane and checks.
  const oneLine = args.target === "all" && !args.verbose;
  const written = new Set<string>();
  const suffix = args.onDeadlock === "break" ? ".break" : "";
  // Cases side by side (CASES_AT_ONCE); each prints once every case before it has, so the output
  // reads in the matrix's order whatever finished first.
  const finished: (CaseReport | null | undefined)[] = matrix.work.map(() => undefined);
  let printed = 0;
  const printReady = () => {
    for (; printed < finished.length && finished[printed] !== undefined; printed++) {
      const report = finished[printed];
      if (!args.json && report) for (const run of report.runs) console.log(oneLine ? runLine(report, run, color) : `${renderRun(report, run, color)}\n`);
    }
  };
  let failure: { error: unknown } | undefined;
  const slot = slots(CASES_AT_ONCE);
  await Promise.all(
    matrix.work.map(({ scenario, column, expectation }, index) =>
      slot(async () => {
        // after a failure no new case starts; those under way finish and are kept
        if (failure) return void (finished[index] = null);
        // Each session's evidence is written the moment it finishes, before anything is judged, so
        // a failing run or an interrupt keeps it.
        let writeError: unknown;
        const save = (sofar: CaseReport) => {
          if (writeError) return;
          try {
            const file = runOutputPath(outDir, scenario.name, sofar.column, suffix);
            writeJsonAtomic(file, sofar);
            written.add(file);
            for (const svg of writeRunSvgs(outDir, { ...sofar, runs: sofar.runs.slice(-1) }, suffix)) written.add(svg);
          } catch (error) {
            writeError = error; // the case runs on; the error is raised once it is printed
          }
        };
        let report: CaseReport | undefined;
        try {
          const options = { client: column.client, server: column.server, transports: args.transports, repeat: args.repeat, onDeadlock: args.onDeadlock, expectedDir: args.expectedDir, onRun: save };
          report = await runCase(scenario, column.loop, options, versions, expectation);
          save(report);
          if (writeError) failure ??= { error: writeError };
          current!.done++;
        } catch (error) {
          failure ??= { error };
        } finally {
          finished[index] = report ?? null;
          printReady();
        }
      }),
    ),
  );
  const reports = finished.filter((r): r is CaseReport => !!r);
  if (failure) {
    // what ran is printed (or given as JSON) before the one-line error
    if (args.json) console.log(JSON.stringify(reports.map((r) => jsonSummary(r, outDir)), null, 2));
    throw failure.error;
  }
  const models = modelChecks(reports);
  if (models.length > 0) writeJsonAtomic(join(outDir, "model-vs-real.json"), models);
  // The page lists every run in the folder, this command's and earlier ones'.
  writeIndexPage(outDir);
  writeStoreIndex(inv.root);
  current = undefined;
  if (junit) writeAtomic(junit, renderJunit(`lab ${args.target}`, junitCases(reports, models)));
  if (args.json) console.log(JSON.stringify(reports.map((r) => jsonSummary(r, outDir)), null, 2));
  else console.log(`${renderSummary(reports, color, { outDir: shown(outDir), files: [...written].map((f) => shown(f)) }, oneLine)}${models.map((m) => `\n\n${renderModelVerdict(m)}`).join("")}`);
  return reports.every((r) => r.ok) && models.every((m) => m.ok) ? 0 : 1;
}

/** Every comparison the nested runs allow (same server, same transport): the serial model and
 *  py-inline each against the real 1.29.0 client (py1), the model against py-inline and against
 *  the real Kotlin 0.14.0 client (kotlin-0.14), the rust-mcp-sdk 1.1.0 client (rust-mcp-sdk) and google-adk 2.15.0
 *  on mcp 1.30.0 (google-adk-mcp1). */
function modelChecks(reports: CaseReport[]): ModelVerdict[] {
  const nested = reports.filter((r) => r.scenario === "nested" && r.onDeadlock === "wait");
  const pairs: [Comparison, (r: CaseReport) => boolean, string][] = [
    ["model-vs-py1", (r) => r.client === "ts1" && r.loop === "serial", "py1"],
    ["py-inline-vs-py1", (r) => r.client === "py-inline", "py1"],
    ["model-vs-py-inline", (r) => r.client === "ts1" && r.loop === "serial", "py-inline"],
    ["model-vs-kotlin-0.14", (r) => r.client === "ts1" && r.loop === "serial", "kotlin-0.14"],
    ["model-vs-rust-mcp-sdk", (r) => r.client === "ts1" && r.loop === "serial", "rust-mcp-sdk"],
    ["model-vs-google-adk-mcp1", (r) => r.client === "ts1" && r.loop === "serial", "google-adk-mcp1"],
  ];
  const verdicts: ModelVerdict[] = [];
  for (const [comparison, isModel, realClient] of pairs) {
    for (const model of nested.filter(isModel)) {
      const real = nested.find((r) => r.client === realClient && r.server === model.server);
      const a = model.runs.find((run) => real?.runs.some((r) => r.transport === run.transport));
      const b = a && real?.runs.find((run) => run.transport === a.transport);
      if (a && b) {
        verdicts.push(compareModelWithReal(storyFacts(a), storyFacts(b), comparison));
        break;
      }
    }
  }
  return verdicts;
}

function jsonSummary(report: CaseReport, outDir: string) {
  const suffix = report.onDeadlock === "break" ? ".break" : "";
  return {
    scenario: report.scenario,
    client: report.client,
    server: report.server,
    loop: report.loop,
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

export { checkRun } from "./run-first.js";

/** Runs what `args` asks for; lab/cli/run-first.ts has checked the scenario's name and --out. */
export async function scenariosMain(args: RunArgs): Promise<number> {
  onInterrupt(interrupted);
  return runScenarios(args);
}
