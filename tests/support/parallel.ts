// npm test: the test files run by WORKERS (four) uvu processes at once (the machine has two cores,
// and much of a test's time is spent waiting on child processes), each taking the next file from one
// queue as it finishes the last (tests/support/worker.ts), then one summary in uvu's own words, so
// .ci/run reads "Total:", "Passed:" and "Skipped:" as ever; Skipped is the sum of what each file
// reported (a test.skip), never a constant. The queue is heaviest first by each file's time in the
// runs here (build/test-durations.json, written by this runner); a file never timed goes first,
// and a fresh clone, with no times at all, is still dealt as the files finish.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILD_DIR, PROJECT_ROOT } from "../../lab/paths.js";
import { DONE_MARK } from "./worker.js";

/** What each file took in the runs here (the mean of the last record and the latest time). */
const DURATIONS = join(BUILD_DIR, "test-durations.json");
const recorded: Record<string, number> = (() => {
  try {
    return JSON.parse(readFileSync(DURATIONS, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
})();
const WORKERS = 4;
/** Every wait has a bound: the whole suite. */
const BOUND_MS = 600_000;

const files = readdirSync(join(PROJECT_ROOT, "tests")).filter((f) => f.endsWith(".test.ts")).sort();
const weight = (file: string) => recorded[file] ?? Number.POSITIVE_INFINITY;
const queue = [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
const started = performance.now();
const durations: Record<string, number> = { ...recorded };
const count = (output: string, word: string) => Number(new RegExp(`^ *${word}: *(\\d+)`, "m").exec(output)?.[1] ?? 0);
const tally = { total: 0, passed: 0, skipped: 0, crashed: [] as string[] };

/** One file's output: printed whole, minus its own closing tally (the combined one follows). */
function finished(file: string, output: string, tookMs: number): void {
  const took = tookMs / 1000;
  const last = recorded[file];
  // the mean with the last record: one run beside a busy neighbour should not re-deal everything
  durations[file] = Math.round((last === undefined ? took : (last + took) / 2) * 10) / 10;
  tally.total += count(output, "Total");
  tally.passed += count(output, "Passed");
  tally.skipped += count(output, "Skipped");
  process.stdout.write(`${output.replace(/\n *Total:[\s\S]*$/, "\n").replace(/^\n+/, "")}\n`);
}

function runWorker(): Promise<void> {
  const worker: ChildProcessWithoutNullStreams = spawn(process.execPath, ["--import", "tsx", join(PROJECT_ROOT, "tests", "support", "worker.ts")], {
    cwd: PROJECT_ROOT,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  let current: { file: string; at: number } | undefined;
  let output = "";
  const next = () => {
    const file = queue.shift();
    if (file === undefined) return void worker.stdin.end();
    current = { file, at: performance.now() };
    output = "";
    worker.stdin.write(`${file}\n`);
  };
  let buffer = "";
  worker.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    for (let at = buffer.indexOf(DONE_MARK); at >= 0; at = buffer.indexOf(DONE_MARK)) {
      const end = buffer.indexOf("\n", at);
      if (end < 0) break;
      output += buffer.slice(0, at);
      buffer = buffer.slice(end + 1);
      if (current) finished(current.file, output, performance.now() - current.at);
      current = undefined;
      next();
    }
  });
  // stderr goes with the file under way, as uvu's own runner would show it
  worker.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  worker.stdin.on("error", () => undefined);
  const timer = setTimeout(() => worker.kill("SIGKILL"), BOUND_MS);
  next();
  return new Promise((resolve) =>
    worker.on("close", (code, signal) => {
      clearTimeout(timer);
      // a worker that ended with a file under way: that file failed, with what it printed
      if (current) {
        tally.crashed.push(current.file);
        process.stdout.write(`${buffer}${output}\n   FAIL  ${current.file}: its uvu process ended (${signal ?? `exit ${code}`}) before the file finished\n\n`);
        current = undefined;
      }
      resolve();
    }),
  );
}

await Promise.all(Array.from({ length: WORKERS }, runWorker));
// files no worker was left to take (every worker ended early) failed too
for (const file of queue.splice(0)) tally.crashed.push(file);
try {
  mkdirSync(BUILD_DIR, { recursive: true });
  writeFileSync(DURATIONS, `${JSON.stringify(durations, null, 2)}\n`);
} catch {
  // the weights are an optimisation: a read-only build/ only loses them
}
// uvu's Total leaves skipped tests out, so a skip never hides a failure and never passes; a file
// that crashed its worker counts as one failed test.
const total = tally.total + tally.crashed.length;
const ok = tally.crashed.length === 0 && total > 0 && tally.passed === total;
if (tally.crashed.length) process.stdout.write(`not finished: ${tally.crashed.join(", ")}\n`);
process.stdout.write(`\n  Total:     ${total}\n  Passed:    ${tally.passed}\n  Skipped:   ${tally.skipped}\n  Duration:  ${Math.round(performance.now() - started)}ms\n\n`);
process.exitCode = ok ? 0 : 1;
