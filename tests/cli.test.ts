// The command line as a user meets it: exit codes, messages, and the run output it leaves.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "./support/cli.js";

test("an unknown scenario exits 2 and names the valid ones", () => {
  const r = runCli(["nope"]);
  assert.is(r.code, 2);
  for (const name of ["nested", "prefetch", "fixed-fixture"]) assert.match(r.stderr, name);
});

test("bad options exit 2 with a clear message", () => {
  assert.is(runCli(["nested", "--dispatch", "threads"]).code, 2);
  assert.is(runCli(["nested", "--repeat", "0"]).code, 2);
  assert.match(runCli(["nested", "--frobnicate"]).stderr, "--frobnicate");
});

test("nested under serial shows the held reply, the timeout, the late dispatch and the recovery; exits 0", () => {
  const out = mkdtempSync(join(tmpdir(), "lab-out-"));
  try {
    const r = runCli(["nested", "--dispatch", "serial", "--transport", "memory", "--repeat", "1", "--out", out]);
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stdout, /HELD behind elicitation\/create #0/);
    assert.match(r.stdout, /nested tools\/list FAILED -32001/);
    assert.match(r.stdout, /LATE reply tools\/list #3/);
    assert.match(r.stdout, /result recovery: \{"status":"calculated","computed":true,"value":21\}/);
    const report = JSON.parse(readFileSync(join(out, "nested.serial.json"), "utf8"));
    assert.is(report.versions.sdk, "1.32.2");
    assert.is(typeof report.versions.node, "string");
    assert.ok(report.runs[0].wire.length > 10);
    assert.ok(report.runs[0].verdicts.length > 10);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("list prints every scenario with what it shows", () => {
  const r = runCli(["list"]);
  assert.is(r.code, 0);
  assert.match(r.stdout, /nested\s+callback #1 awaits tools\/list/);
});

test.run();
