// npm test: the test files in GROUPS (four) uvu processes at once (the machine has two cores, and
// much of a test's time is spent waiting on child processes), then one summary in uvu's own words, so
// .ci/run reads "Total:", "Passed:" and "Skipped:" as ever; Skipped is the sum of what each uvu
// run reported (a test.skip), never a constant. Files are dealt to the groups by their
// time in the last run here (build/test-durations.json, written by this runner; heaviest first,
// to the lighter group); each group is an ordinary uvu run.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILD_DIR, PROJECT_ROOT } from "../../lab/paths.js";
import { startHostBroker } from "../../lab/transports/host-broker.js";
import { BROKER_ENV } from "../../lab/transports/host-control.js";

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

const files = readdirSync(join(PROJECT_ROOT, "tests")).filter((f) => f.endsWith(".test.ts")).sort();
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
const groups: { files: string[]; weight: number }[] = Array.from({ length: GROUPS }, () => ({ files: [], weight: 0 }));
for (const unit of [...units.values()].sort((a, b) => unitWeight(b) - unitWeight(a) || a[0]!.localeCompare(b[0]!))) {
  const lightest = groups.reduce((a, b) => (b.weight < a.weight ? b : a));
  lightest.files.push(...unit);
  lightest.weight += unitWeight(unit);
}

/** The groups share their hosts (a venv's warm interpreter, a JVM driver, the ts1 server's host):
 *  each would otherwise start its own (lab/transports/host-broker.ts). */
const broker = await startHostBroker();

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const started = performance.now();

/** When each file's name appeared in its group's output (uvu prints it as the file starts). */
const seen: { file: string; at: number; group: number }[] = [];
const groupEnded: number[] = [];

function runGroup(group: string[], index: number): Promise<{ output: string; code: number | null }> {
  const pattern = `^(${group.map(escape).join("|")})$`;
  const uvu = join(PROJECT_ROOT, "node_modules", "uvu", "bin.js");
  const child = spawn(process.execPath, ["--import", "tsx", uvu, "tests", pattern, "--no-color"], { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, [BROKER_ENV]: broker.path } });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    for (const line of text.split("\n")) if (group.includes(line.trim())) seen.push({ file: line.trim(), at: performance.now(), group: index });
    output += text;
  });
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), BOUND_MS);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      groupEnded[index] = performance.now();
      resolve({ output, code });
    }),
  );
}

const results = await Promise.all(groups.filter((g) => g.files.length).map((g, i) => runGroup(g.files, i)));
const hostsStarted = broker.started;
broker.stop();
// Each file's time: from its name to the next file's in the same group (or the group's end).
// (only files that exist: a removed or renamed file's record goes with it)
const durations: Record<string, number> = Object.fromEntries(Object.entries(recorded).filter(([file]) => files.includes(file)));
for (const [i, s] of seen.entries()) {
  const next = seen.slice(i + 1).find((n) => n.group === s.group);
  const took = ((next?.at ?? groupEnded[s.group] ?? s.at) - s.at) / 1000;
  // the mean with the last record: one run beside a busy neighbour should not re-deal everything
  const last = recorded[s.file];
  durations[s.file] = Math.round((last === undefined ? took : (last + took) / 2) * 10) / 10;
}
try {
  mkdirSync(BUILD_DIR, { recursive: true });
  writeFileSync(DURATIONS, `${JSON.stringify(durations, null, 2)}\n`);
} catch {
  // the weights are an optimisation: a read-only build/ only loses them
}
const count = (output: string, word: string) => Number(new RegExp(`^ *${word}: *(\\d+)`, "m").exec(output)?.[1] ?? 0);
let total = 0;
let passed = 0;
let skipped = 0;
for (const [i, r] of results.entries()) {
  // Each group's own output, minus its closing tally (the combined one follows).
  const took = /^ *Duration: *([\d.]+)ms/m.exec(r.output)?.[1];
  process.stdout.write(`\n── test group ${i + 1} of ${results.length} (exit ${r.code}${took ? `, ${Math.round(Number(took) / 1000)} s` : ""}) ──\n`);
  process.stdout.write(r.output.replace(/\n *Total:[\s\S]*$/, "\n"));
  total += count(r.output, "Total");
  passed += count(r.output, "Passed");
  skipped += count(r.output, "Skipped");
}
// uvu's Total leaves skipped tests out, so a skip never hides a failure and never passes.
const ok = results.every((r) => r.code === 0) && total > 0 && passed === total;
process.stdout.write(`\n── hosts shared by the groups: ${hostsStarted} started ──\n`);
process.stdout.write(`\n  Total:     ${total}\n  Passed:    ${passed}\n  Skipped:   ${skipped}\n  Duration:  ${Math.round(performance.now() - started)}ms\n\n`);
process.exitCode = ok ? 0 : 1;
