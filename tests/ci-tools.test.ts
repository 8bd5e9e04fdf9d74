// A test whose tool is missing is skipped, and counted as skipped; under CI (CI=true) it fails.
// Shown on the browser test with Chromium hidden from PATH (an empty folder as the whole PATH).
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./support/cli.js";

const empty = mkdtempSync(join(tmpdir(), "lab-no-tools-"));

function browserTest(ci: boolean) {
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "CI")), PATH: empty, ...(ci && { CI: "true" }) };
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

test.after(() => rmSync(empty, { recursive: true, force: true }));
test.run();
