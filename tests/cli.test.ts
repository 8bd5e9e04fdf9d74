// The command line as a user meets it: exit codes, messages, and the run output it leaves.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, runCli } from "./support/cli.js";

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
    assert.match(r.stdout, /HELD in client queue behind elicitation\/create #0/);
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

test("a failing expectation exits 1 and still writes the run output (JSON and SVG) with the failing verdict", () => {
  const expected = mkdtempSync(join(tmpdir(), "lab-expected-"));
  const out = mkdtempSync(join(tmpdir(), "lab-out-"));
  try {
    cpSync(join(ROOT, "expected"), expected, { recursive: true });
    const file = join(expected, "fixed-fixture.sdk.json");
    const doc = JSON.parse(readFileSync(file, "utf8"));
    doc.results.first.value = 22; // a wrong hand-written value
    writeFileSync(file, JSON.stringify(doc));
    const r = runCli(["fixed-fixture", "--dispatch", "sdk", "--transport", "memory", "--repeat", "1", "--expected", expected, "--out", out]);
    assert.is(r.code, 1, r.stderr);
    assert.match(r.stdout, "$.first.value: expected integer 22, got integer 21");
    const report = JSON.parse(readFileSync(join(out, "fixed-fixture.sdk.json"), "utf8"));
    assert.is(report.ok, false);
    assert.is(report.expectedFile, file);
    assert.ok(report.runs[0].wire.length > 0, "the evidence is kept");
    assert.ok(readdirSync(out).some((f) => f.endsWith(".svg")));
  } finally {
    rmSync(expected, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
});

test("a malformed expectation exits 2 naming the file and the path inside it", () => {
  const expected = mkdtempSync(join(tmpdir(), "lab-expected-"));
  try {
    cpSync(join(ROOT, "expected"), expected, { recursive: true });
    const file = join(expected, "prefetch.serial.json");
    const doc = JSON.parse(readFileSync(file, "utf8"));
    doc.wire["tools/list"] = "one";
    writeFileSync(file, JSON.stringify(doc));
    const r = runCli(["prefetch", "--dispatch", "serial", "--transport", "memory", "--expected", expected]);
    assert.is(r.code, 2);
    assert.match(r.stderr, file);
    assert.match(r.stderr, "$.wire.tools/list");
  } finally {
    rmSync(expected, { recursive: true, force: true });
  }
});

test("list prints every scenario with what it shows", () => {
  const r = runCli(["list"]);
  assert.is(r.code, 0);
  assert.match(r.stdout, /nested\s+callback #1 awaits tools\/list/);
});

test.run();
