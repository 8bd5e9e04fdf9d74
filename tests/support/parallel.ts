// npm test: the test files in GROUPS (four) processes at once (the machine has two cores, and
// much of a test's time is spent waiting on child processes), then one summary in uvu's own words, so
// .ci/run reads "Total:", "Passed:" and "Skipped:" as ever; Skipped is the sum of what uvu reported
// for each file (a test.skip), never a constant. Files are dealt as the processes ask for them
// (tests/support/worker.ts runs each file as uvu's CLI would), heaviest first by their time in the
// last runs here (build/test-durations.json, written by this runner), so a process that finishes
// early takes the next file, and a record off by a few seconds costs nothing at the end.
import { fork } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILD_DIR, PROJECT_ROOT } from "../../lab/paths.js";
import { startHostBroker } from "../../lab/transports/host-broker.js";
import { BROKER_ENV } from "../../lab/transports/host-control.js";
import { SKIP_MARK } from "./needs.js";
import { FULL_RUN, FULL_TIER_FILES } from "./tiers.js";
import type { Deal, Report } from "./worker.js";

/** What each file took in the runs here, recorded by this runner (build/, not committed; the mean
 *  of the last record and the latest time): the weights files are dealt by. A file never timed here counts as the median of those that were. */
const DURATIONS = join(BUILD_DIR, "test-durations.json");
const recorded: Record<string, number> = (() => {
  try {
    return JSON.parse(readFileSync(DURATIONS, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
})();
const known = Object.values(recorded).sort((a, b) => a - b);
const fallback = known.length ? known[Math.floor(known.length / 2)]! : 3;
const WEIGHT = (file: string) => recorded[file] ?? fallback;
const GROUPS = 4;
/** Every wait has a bound: the whole suite. */
const BOUND_MS = 600_000;

/** LAB_TEST_FILES=<regex>: only the files it matches, and no durations recorded (tests/needs.test.ts
 *  runs the runner on one file). */
const only = process.env.LAB_TEST_FILES;
const matching = readdirSync(join(PROJECT_ROOT, "tests")).filter((f) => f.endsWith(".test.ts") && new RegExp(only ?? "").test(f)).sort();
/** Files left to the full tier (tests/support/tiers.ts), unless LAB_TESTS=full or LAB_TEST_FILES names them. */
const leftToFull = FULL_RUN || only !== undefined ? [] : matching.filter((f) => FULL_TIER_FILES.includes(f));
const files = matching.filter((f) => !leftToFull.includes(f));
/** Runs made once per process and shared by the files that read them (tests/support/): files that
 *  start the same ones go to the same group, so a group makes them once, not each group. */
const SHARED_RUNS = [/startAllMemoryRuns\b/, /probeRun\(/, /support\/contract-runs/];
const units = new Map<string, string[]>();
for (const file of files) {
  const source = readFileSync(join(PROJECT_ROOT, "tests", file), "utf8");
  const shared = SHARED_RUNS.findIndex((pattern) => pattern.test(source));
  const key = shared < 0 ? file : `shared ${shared}`;
  units.set(key, [...(units.get(key) ?? []), file]);
}
const unitWeight = (unit: string[]) => unit.reduce((sum, file) => sum + WEIGHT(file), 0);
/** Heaviest first; files that share runs together, in name order (one process makes their runs). */
const queue = [...units.values()].sort((a, b) => unitWeight(b) - unitWeight(a) || a[0]!.localeCompare(b[0]!));

/** Every peer is built first (lab/cli/setup.ts; what is current costs about a second), so that no
 *  test skips a peer that could be built here; a build's lines are printed, the cached ones counted. */
const setupStarted = performance.now();
const setupLines: string[] = [];
const { setup } = await import("../../lab/cli/setup.js");
const setupOk = await setup("all", (line) => setupLines.push(line));
const fresh = setupLines.filter((line) => !/: cached, inputs unchanged /.test(line));
process.stdout.write(`${fresh.map((line) => `${line}\n`).join("")}set-up: ${setupLines.length - fresh.length} builds current${setupOk ? "" : ", a build FAILED (its peer's tests fail under CI, else skip)"} (${((performance.now() - setupStarted) / 1000).toFixed(1)} s)\n`);

/** The groups share their hosts (a venv's warm interpreter, a JVM driver, the ts1 server's host):
 *  each would otherwise start its own (lab/transports/host-broker.ts). */
const broker = await startHostBroker();

const started = performance.now();
const SKIPPED = new RegExp(`^${SKIP_MARK}(.*)$`, "gm");
const TALLY = /\n *Total: *(\d+)\n *Passed: *(\d+)\n *Skipped: *(\d+)\n *Duration:[^\n]*\n/g;
const counts = { total: 0, passed: 0, skipped: 0 };
const failedFiles: string[] = [];
/** Each skipped test's name, as its file printed it (tests/support/needs.ts: uvu keeps no skip's name). */
const skippedTests: string[] = [];
/** Each file's time, from its deal to its report (files of one unit: from the previous one's end). */
const took: Record<string, number> = {};

function runGroup(): Promise<{ output: string; code: number | null; files: number }> {
  const child = fork(join(PROJECT_ROOT, "tests", "support", "worker.ts"), [], {
    cwd: PROJECT_ROOT,
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    env: { ...process.env, [BROKER_ENV]: broker.path },
  });
  let output = "";
  let files = 0;
  let since = performance.now();
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.on("message", (report: Report) => {
    if ("ready" in report) {
      const unit = queue.shift();
      since = performance.now();
      return void child.send(unit ? ({ files: unit } satisfies Deal) : ({ end: true } satisfies Deal));
    }
    files++;
    took[report.file] = (performance.now() - since) / 1000;
    since = performance.now();
    // uvu's closing tally for this file (the last in its output): counted, then left out
    const tally = [...report.output.matchAll(TALLY)].pop();
    if (!tally) failedFiles.push(`${report.file}: no tally from uvu`);
    else for (const [i, key] of (["total", "passed", "skipped"] as const).entries()) counts[key] += Number(tally[i + 1]);
    if (report.failed) failedFiles.push(report.file);
    for (const [, name] of report.output.matchAll(SKIPPED)) skippedTests.push(`${report.file}: ${name}`);
    output += tally ? report.output.slice(0, tally.index) + report.output.slice(tally.index! + tally[0].length) : report.output;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), BOUND_MS);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ output, code, files });
    }),
  );
}

const results = await Promise.all(Array.from({ length: GROUPS }, () => runGroup()));
const hostsStarted = broker.started;
broker.stop();
// (only files that exist: a removed or renamed file's record goes with it)
const durations: Record<string, number> = Object.fromEntries(Object.entries(recorded).filter(([file]) => matching.includes(file)));
for (const [file, seconds] of Object.entries(took)) {
  // the mean with the last record: one run beside a busy neighbour should not re-order everything
  const last = recorded[file];
  durations[file] = Math.round((last === undefined ? seconds : (last + seconds) / 2) * 10) / 10;
}
if (only === undefined) try {
  mkdirSync(BUILD_DIR, { recursive: true });
  writeFileSync(DURATIONS, `${JSON.stringify(durations, null, 2)}\n`);
} catch {
  // the weights are an optimisation: a read-only build/ only loses them
}
for (const [i, r] of results.entries()) {
  process.stdout.write(`\n── test group ${i + 1} of ${results.length} (exit ${r.code}, ${r.files} files) ──\n`);
  process.stdout.write(r.output);
}
if (skippedTests.length) process.stdout.write(`\n── skipped (${skippedTests.length}):\n${skippedTests.map((t) => `  ${t}\n`).join("")}`);
if (leftToFull.length) process.stdout.write(`\n── left to the full tier (LAB_TESTS=full npm test; .ci/run runs them): ${leftToFull.join(", ")} ──\n`);
if (failedFiles.length) process.stdout.write(`\n── failed: ${failedFiles.join(", ")} ──\n`);
const notRun = files.filter((file) => !(file in took));
if (notRun.length) process.stdout.write(`\n── not run (a process ended before it): ${notRun.join(", ")} ──\n`);
const { total, passed, skipped } = counts;
// uvu's Total leaves skipped tests out, so a skip never hides a failure and never passes.
const ok = results.every((r) => r.code === 0) && failedFiles.length === 0 && notRun.length === 0 && total > 0 && passed === total;
process.stdout.write(`\n── hosts shared by the groups: ${hostsStarted} started ──\n`);
process.stdout.write(`\n  Total:     ${total}\n  Passed:    ${passed}\n  Skipped:   ${skipped}\n  Duration:  ${Math.round(performance.now() - started)}ms\n\n`);
process.exitCode = ok ? 0 : 1;
