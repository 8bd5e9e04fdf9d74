// --junit FILE: every check as a JUnit test case, for a CI job. The XML is parsed by a real XML
// parser (Python's xml.etree, the machine's python3), counted against the run's own verdicts, and a
// failing expectation shows as a <failure>. An existing file is never written over.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, runMain } from "./support/cli.js";

const dir = mkdtempSync(join(tmpdir(), "lab-junit-"));
const RUN = ["prefetch", "--loop", "sdk", "--transport", "memory", "--repeat", "1"];

/** [tests, failures, failing test names] as an XML parser reads the file. */
function parsed(file: string): { tests: number; failures: number; failing: string[] } {
  const script = "import sys, xml.etree.ElementTree as E\nr = E.parse(sys.argv[1]).getroot()\ncs = r.iter('testcase')\nprint('\\n'.join(c.get('name') + ('\\tFAIL' if c.find('failure') is not None else '') for c in cs))";
  const r = spawnSync("python3", ["-c", script, file], { encoding: "utf8", timeout: 20_000 });
  assert.is(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split("\n");
  const failing = lines.filter((l) => l.endsWith("\tFAIL")).map((l) => l.slice(0, -5));
  return { tests: lines.length, failures: failing.length, failing };
}

test("a passing scenario run: one test case per check, none failing", async () => {
  const file = join(dir, "pass.xml");
  const out = join(dir, "out-pass");
  const r = await runMain([...RUN, "--junit", file, "--out", out]);
  assert.is(r.code, 0, r.stderr);
  const latest = join(out, "latest");
  const report = JSON.parse(readFileSync(join(latest, readdirSync(latest).find((f) => f.endsWith(".json"))!), "utf8"));
  const x = parsed(file);
  assert.is(x.tests, report.runs[0].verdicts.length);
  assert.is(x.failures, 0);
});

test("a failing expectation is a <failure> named by its check; an existing file is refused, exit 2", async () => {
  const expected = join(dir, "expected");
  cpSync(join(ROOT, "expected"), expected, { recursive: true });
  const path = join(expected, "prefetch.sdk.json");
  const doc = JSON.parse(readFileSync(path, "utf8"));
  doc.results.first.value = 22;
  writeFileSync(path, JSON.stringify(doc));
  const file = join(dir, "fail.xml");
  const r = await runMain([...RUN, "--expected", expected, "--junit", file, "--out", join(dir, "out-fail")]);
  assert.is(r.code, 1);
  assert.equal(parsed(file).failing, ["results (type-aware)"]);
  const again = await runMain([...RUN, "--junit", file, "--out", join(dir, "out-again")]);
  assert.is(again.code, 2);
  assert.match(again.stderr, "the file exists, and the lab never writes over an earlier report");
});

test("the card: one test case per pairing and row", async () => {
  const file = join(dir, "card.xml");
  const r = await runMain(["card", "--client", "ts1", "--server", "ts1", "--loop", "sdk", "--junit", file, "--out", join(dir, "out-card")]);
  assert.is(r.code, 0, r.stdout);
  const x = parsed(file);
  assert.ok(x.tests >= 10, `${x.tests} cases`);
  assert.is(x.failures, 0);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
