// A test whose tool is missing is skipped, and counted as skipped; under CI (CI=true) it fails.
// Shown on the browser test with Chromium hidden from PATH (an empty folder as the whole PATH).
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./support/cli.js";
import { FULL_TIER_FILES } from "./support/tiers.js";

const empty = mkdtempSync(join(tmpdir(), "lab-no-tools-"));

function browserTest(ci: boolean) {
  // FORCE_COLOR: uvu sets it when this file runs without --no-color, and it would colour the child's tally
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "CI" && k !== "FORCE_COLOR")), PATH: empty, ...(ci && { CI: "true" }) };
  const r = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "node_modules", "uvu", "bin.js"), "tests", "^index-page-browser.test.ts$", "--no-color"], { cwd: ROOT, encoding: "utf8", timeout: 60_000, env });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

test("without Chromium on PATH the browser test is skipped and counted as skipped", () => {
  const r = browserTest(false);
  assert.is(r.code, 0, r.output);
  assert.match(r.output, /Total: +0\b/);
  assert.match(r.output, /Skipped: +1\b/);
});

test("with CI=true and without Chromium on PATH the browser test fails, naming what is missing", () => {
  const r = browserTest(true);
  assert.is(r.code, 1, r.output);
  assert.match(r.output, /Total: +1\b/);
  assert.match(r.output, /Passed: +0\b/);
  assert.match(r.output, "chromium is missing: .ci/run should have installed it");
});

/** .ci/run's own tally block, run on a uvu summary and an exit status: "passed failed skipped". */
function tally(summary: string, status: number): string {
  const script = readFileSync(join(ROOT, ".ci", "run"), "utf8");
  const block = /# tally: begin[^\n]*\n([\s\S]*?)# tally: end/.exec(script)?.[1];
  assert.ok(block, ".ci/run has its tally block");
  const log = join(empty, "log.txt");
  writeFileSync(log, summary);
  const r = spawnSync("bash", ["-c", `log=${JSON.stringify(log)}; status=${status}\n${block}\necho "$passed $failed $skipped"`], { encoding: "utf8", timeout: 10_000 });
  return r.stdout.trim();
}

test("every file npm test leaves to the full tier is run by .ci/run's LAB_TESTS=full step, and exists", () => {
  const ci = readFileSync(join(ROOT, ".ci", "run"), "utf8");
  const line = ci.split("\n").find((l) => l.includes("LAB_TESTS=full") && l.includes("uvu/bin.js"));
  const pattern = line?.match(/tests '([^']+)'/)?.[1];
  assert.ok(pattern, "the LAB_TESTS=full step names its files by a pattern");
  const missed = FULL_TIER_FILES.filter((f) => !new RegExp(pattern!).test(f));
  assert.equal(missed, [], `.ci/run's full tier (${pattern}) misses these`);
  assert.not.ok(new RegExp(pattern!).test("history.test.ts"), "the py sample stays in npm test");
  for (const f of FULL_TIER_FILES) assert.ok(readFileSync(join(ROOT, "tests", f), "utf8").length > 0, f);
});

test(".ci/run's tally: a skipped test is neither passed nor failed, a failure or a crash is counted", () => {
  // uvu's Total leaves test.skip out: 578 ran, 578 passed, 2 skipped is a clean run (CI stop 36 read it as -2 failed)
  assert.is(tally("  Total:     578\n  Passed:    578\n  Skipped:   2\n", 0), "578 0 2");
  assert.is(tally("  Total:     10\n  Passed:    9\n  Skipped:   1\n", 1), "9 1 1");
  assert.is(tally("Error: cannot find module\n", 1), "0 1 0");
});

test.after(() => rmSync(empty, { recursive: true, force: true }));
test.run();
