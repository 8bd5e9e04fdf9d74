// npm test: the test files in two uvu processes at once (the machine has two cores, and much of
// a test's time is spent waiting on child processes), then one summary in uvu's own words, so
// .ci/run reads "Total:", "Passed:" and "Skipped:" as ever; Skipped is the sum of what each uvu
// run reported (a test.skip), never a constant. Files are dealt to the two groups by their
// measured weight (heaviest first, to the lighter group); each group is an ordinary uvu run.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../lab/paths.js";

/** Seconds each file took alone on a quiet 2-core machine (2026-12-03; the browser test as with Chromium); others count 3. */
const WEIGHT: Record<string, number> = {
  "probe.test.ts": 17, "py-peers.test.ts": 10, "py1-peers.test.ts": 4, "fastmcp.test.ts": 4, "driver-faults.test.ts": 8,
  "index-page-browser.test.ts": 8, "stdio.test.ts": 8, "svg.test.ts": 7, "cancel.test.ts": 6,
  "expectations.test.ts": 6, "mermaid.test.ts": 6, "probe-edges.test.ts": 6, "scenarios.test.ts": 6,
  "color.test.ts": 5, "http.test.ts": 5, "notebooks.test.ts": 5, "py-vocabulary.test.ts": 5,
  "scratch.test.ts": 5, "cancel-clients.test.ts": 4, "cli.test.ts": 4, "deadlock.test.ts": 4,
  "probe-judge.test.ts": 4, "soak.test.ts": 4, "typecheck.test.ts": 4, "card.test.ts": 5,
  "cli-output.test.ts": 3, "verifier-mutations.test.ts": 3, "vocabulary.test.ts": 3,
  "contract-mutations.test.ts": 2, "contract.test.ts": 2, "index-page.test.ts": 2,
  "peers-axis.test.ts": 2, "py-modern.test.ts": 3, "ts2-peers.test.ts": 2, "ts2-vocabulary.test.ts": 2,
  "zz-no-child-left.test.ts": 2, "interrupt.test.ts": 10, "ci-tools.test.ts": 4, "hostile-input.test.ts": 5, "render-text.test.ts": 1, "versions.test.ts": 1,
};
const GROUPS = 3;
/** Every wait has a bound: the whole suite. */
const BOUND_MS = 600_000;

const files = readdirSync(join(PROJECT_ROOT, "tests")).filter((f) => f.endsWith(".test.ts")).sort();
const groups: { files: string[]; weight: number }[] = Array.from({ length: GROUPS }, () => ({ files: [], weight: 0 }));
for (const file of [...files].sort((a, b) => (WEIGHT[b] ?? 3) - (WEIGHT[a] ?? 3))) {
  const lightest = groups.reduce((a, b) => (b.weight < a.weight ? b : a));
  lightest.files.push(file);
  lightest.weight += WEIGHT[file] ?? 3;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const started = performance.now();

function runGroup(group: string[]): Promise<{ output: string; code: number | null }> {
  const pattern = `^(${group.map(escape).join("|")})$`;
  const uvu = join(PROJECT_ROOT, "node_modules", "uvu", "bin.js");
  const child = spawn(process.execPath, ["--import", "tsx", uvu, "tests", pattern, "--no-color"], { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), BOUND_MS);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ output, code });
    }),
  );
}

const results = await Promise.all(groups.filter((g) => g.files.length).map((g) => runGroup(g.files)));
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
process.stdout.write(`\n  Total:     ${total}\n  Passed:    ${passed}\n  Skipped:   ${skipped}\n  Duration:  ${Math.round(performance.now() - started)}ms\n\n`);
process.exitCode = ok ? 0 : 1;
