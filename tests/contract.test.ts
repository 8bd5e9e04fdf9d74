// The form-elicitation contract: every case in memory against its hand-written expectation,
// the case list and the expected files agree, and the `contract` command as a user meets it.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONTRACT_EXPECTED_DIR, ContractExpectation, contractExpectationPath, loadContractExpectation, verifyContract } from "../lab/check/contract.js";
import { ExpectationError, parseExpectation } from "../lab/check/expectations.js";
import { runMain } from "./support/cli.js";
import { survivingChanges, type Json } from "../lab/check/mutations.js";
import { CASE_NAMES, contractRun } from "./support/contract-runs.js";

test("there are at least 12 cases, each with exactly one expected file", () => {
  assert.ok(CASE_NAMES.length >= 12, `${CASE_NAMES.length} cases`);
  const files = readdirSync(CONTRACT_EXPECTED_DIR).filter((f) => f.endsWith(".json")).map((f) => f.replace(/\.json$/, ""));
  assert.equal([...files].sort(), [...CASE_NAMES].sort());
});

for (const name of CASE_NAMES) {
  test(`${name} meets expected/contract/${name}.json`, async () => {
    const run = await contractRun(name);
    const failed = verifyContract(run, loadContractExpectation(name)).filter((v) => !v.ok);
    assert.equal(failed, [], failed.map((v) => `${v.check}: ${v.details.join("; ")}`).join("\n"));
  });
}

test("only accept_valid computes, in the expectations and in the runs", async () => {
  for (const name of CASE_NAMES) {
    const expected = loadContractExpectation(name).results[name] as { computed: unknown };
    const run = await contractRun(name);
    const recorded = run.events.find((e) => e.kind === "tool.result")?.detail?.result as { computed: unknown };
    assert.is(expected.computed, name === "accept_valid", `${name} expected`);
    assert.is(recorded.computed, name === "accept_valid", `${name} recorded`);
  }
});

test("a client that declares nothing for form mode is never sent a form, and its callback never runs", async () => {
  for (const name of ["unsupported_guarded", "url_only_capability", "url_unsupported"]) {
    const run = await contractRun(name);
    assert.is(run.wire.filter((f) => (f.message as { method?: string }).method === "elicitation/create").length, 0, name);
    assert.is(run.events.filter((e) => e.kind === "callback.entered").length, 0, name);
  }
});

test("a malformed contract expectation names the file and the path inside it", () => {
  const doc = JSON.parse(readFileSync(join(CONTRACT_EXPECTED_DIR, "url.json"), "utf8"));
  doc.completions = [1];
  doc.requestedSchemas = {};
  try {
    parseExpectation(JSON.stringify(doc), "url.json", ContractExpectation);
    assert.unreachable("accepted a malformed file");
  } catch (error) {
    assert.instance(error, ExpectationError);
    assert.match((error as Error).message, "url.json");
    assert.match((error as Error).message, "$.completions[0]");
    assert.match((error as Error).message, "$.requestedSchemas: unknown key");
  }
});

test("contract calculate over memory prints the table, writes run-output/contract.json and exits 0", async () => {
  const out = mkdtempSync(join(tmpdir(), "lab-contract-"));
  try {
    const r = await runMain(["contract", "calculate", "--transport=memory", "--out", out]);
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /accept_valid\s+memory\s+accept\s+calculated\s+true\s+21/);
    assert.match(r.stdout, /accept_wrong_type\s+memory\s+accept\s+invalid_content\s+false\s+null\s+server SDK/);
    assert.match(r.stdout, /unsupported_unchecked_diagnostic\s+memory\s+-\s+protocol_error\s+false\s+null\s+client SDK\s+client SDK: no handler \(-32601\)/);
    const report = JSON.parse(readFileSync(join(out, "latest", "contract.json"), "utf8"));
    assert.is(report.ok, true);
    assert.is(report.loop, "sdk");
    assert.is(report.versions.sdk, "1.32.2");
    assert.is(report.cases.length, CASE_NAMES.length);
    assert.ok(report.cases.every((c: { runs: { wire: unknown[] }[] }) => c.runs.length === 1 && c.runs[0]!.wire.length >= 4));
    // The results page (lab/cli/index-page.ts) lists every contract run, and the table's rows.
    const page = readFileSync(join(out, "latest", "index.html"), "utf8");
    assert.is(page.match(/data-scenario="contract"/g)?.length, CASE_NAMES.length);
    assert.is(report.rows.length, CASE_NAMES.length);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("contract: bad usage exits 2 and says why", async () => {
  const unknown = await runMain(["contract", "nope"]);
  assert.is(unknown.code, 2);
  assert.match(unknown.stderr, "accept_valid");
  assert.is((await runMain(["contract", "--loop", "serial"])).code, 2);
  assert.is((await runMain(["contract", "--loop=serial"])).code, 2);
  assert.match((await runMain(["contract", "--frobnicate"])).stderr, "--frobnicate");
  assert.is((await runMain(["contract", "--transport", "carrier-pigeon"])).code, 2);
  assert.is((await runMain(["contract", "--repeat", "1e1"])).code, 2);
});

test("contract --json names one case and prints machine-readable rows", async () => {
  const out = mkdtempSync(join(tmpdir(), "lab-contract-"));
  try {
    const r = await runMain(["contract", "url", "--transport", "memory", "--json", "--out", out]);
    assert.is(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout);
    assert.is(summary.rows.length, 1);
    assert.equal(
      { case: summary.rows[0].case, status: summary.rows[0].status, computed: summary.rows[0].computed },
      { case: "url", status: "url_accepted", computed: false },
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

for (const name of CASE_NAMES) {
  test(`changing any value in expected/contract/${name}.json makes the real run fail`, async () => {
    const run = await contractRun(name);
    const file = contractExpectationPath(name);
    const doc = JSON.parse(readFileSync(file, "utf8")) as Json;
    const { checked, survivors } = survivingChanges(doc, (changed) => {
      try {
        return verifyContract(run, parseExpectation(changed, file, ContractExpectation) as ContractExpectation).some((v) => !v.ok);
      } catch (error) {
        return error instanceof ExpectationError;
      }
    });
    assert.ok(checked >= 10, `${checked} values checked`);
    assert.equal(survivors, [], `changes that went unnoticed: ${survivors.join(", ")}`);
  });
}

test.run();
