// The whole 2025-11-25 form vocabulary against the ts1 server (issue #16): every vocabulary case
// runs once in memory (shared by every assertion below), two over stdio for parity, and the
// checks are shown to bite: corrupted real evidence, changed expectation values and malformed
// files are all refused.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runContractScenario } from "../lab/session/contract.js";
import { verifyContract, type ContractExpectation } from "../lab/check/contract.js";
import { ExpectationError, parseExpectation } from "../lab/check/expectations.js";
import { LAYERS } from "../lab/check/layer.js";
import { checkVocabularyFile, kindsWritten, loadVocabularyExpectation, loadVocabularyFile, VocabularyFile, vocabularyExpectation, vocabularyPath } from "../lab/check/vocabulary.js";
import { FIELD_KINDS, findVocabularyCase, VOCABULARY_CASES, type VocabularyCase } from "../lab/plan/vocabulary.js";
import { TS1_SERVER } from "../lab/peers/ts1/index.js";
import { readVersions } from "../lab/peers/versions.js";
import { runSession } from "../lab/session/session.js";
import { type SessionEvidence } from "../lab/plan/session.js";
import { openMemoryTransport } from "../lab/transports/memory.js";
import { casesOfKind, vocabularyScenario } from "../scenarios/contract/vocabulary.js";
import { runMain } from "./support/cli.js";
import { copy } from "./support/runs.js";
import { survivingChanges, type Json } from "../lab/check/mutations.js";

const runs = new Map<string, SessionEvidence>();
const expectations = new Map<string, ContractExpectation>();

test.before(async () => {
  for (const v of VOCABULARY_CASES) {
    expectations.set(v.name, loadVocabularyExpectation(v, undefined, "ts1"));
    runs.set(v.name, await runSession(vocabularyScenario(v), openMemoryTransport, "memory", { loop: "sdk" }));
  }
});

const failures = (v: VocabularyCase, run = runs.get(v.name)!, expected = expectations.get(v.name)!) =>
  verifyContract(run, expected).filter((x) => !x.ok).map((x) => `${x.check}: ${x.details.join("; ")}`);

test("every kind has its ts1 file, and every vocabulary case meets it (memory)", () => {
  assert.equal(kindsWritten(undefined, "ts1").sort(), FIELD_KINDS.map((k) => k.name).sort());
  const failed = VOCABULARY_CASES.flatMap((v) => failures(v).map((f) => `${v.name}: ${f}`));
  assert.equal(failed, [], failed.join("\n"));
});

test("each wrong answer is refused by a named layer, and the valid ones by none", () => {
  const layers = new Set(VOCABULARY_CASES.map((v) => expectations.get(v.name)!.refusedBy));
  for (const v of VOCABULARY_CASES) {
    const layer = expectations.get(v.name)!.refusedBy!;
    assert.ok(LAYERS.includes(layer), v.name);
    if (v.name.endsWith(".valid")) assert.is(layer, "none", v.name);
  }
  // ts1 shows three layers at work: its server SDK (ajv), the app, and its client SDK (non-flat schemas)
  assert.ok(["none", "server SDK", "app", "client SDK"].every((l) => layers.has(l as (typeof LAYERS)[number])), [...layers].join(", "));
});

test("over stdio, two cases hold the same expectations, and memory and stdio agree", async () => {
  const versions = readVersions();
  for (const name of ["integer.string_digits", "nested_object.answered"]) {
    const v = findVocabularyCase(name)!;
    const report = await runContractScenario(vocabularyScenario(v), expectations.get(name)!, vocabularyPath(v.kind), { server: TS1_SERVER, transports: ["memory", "stdio"], repeat: 1 }, versions);
    const problems = report.runs.flatMap((r) => r.verdicts.filter((x) => !x.ok).map((x) => `${r.transport} ${x.check}: ${x.details.join("; ")}`));
    assert.equal(problems, [], problems.join("\n"));
    assert.equal(report.parity.map((p) => p.ok), [true], name);
  }
});

type Corruption = (run: SessionEvidence) => boolean;
const resultOf = (run: SessionEvidence) => run.events.find((e) => e.kind === "tool.result")!.detail!.result as Record<string, unknown>;
const replyOf = (run: SessionEvidence) => {
  const request = run.wire.find((f) => f.from === "server" && (f.message as { method?: string }).method === "elicitation/create");
  return run.wire.find((f) => f.from === "client" && request && (f.message as { id?: unknown }).id === (request.message as { id?: unknown }).id && !("method" in f.message));
};
/** The same value in another JSON type: 3 -> "3", "3" -> 3 or "x" -> 0, true -> 1, [..] -> {..}. */
const retyped = (value: unknown): unknown =>
  typeof value === "number" ? String(value) : typeof value === "string" ? (Number.isNaN(Number(value)) ? 0 : Number(value)) : typeof value === "boolean" ? Number(value) : Array.isArray(value) ? { ...value } : value === undefined ? null : [value];

const CORRUPTIONS: Record<string, Corruption> = {
  "result content value retyped": (run) => {
    const content = resultOf(run).content as Record<string, unknown> | undefined;
    const key = content && Object.keys(content)[0];
    if (!key) return false;
    content[key] = retyped(content[key]);
    return true;
  },
  "reply content value retyped": (run) => {
    const content = ((replyOf(run)?.message as { result?: { content?: Record<string, unknown> } } | undefined)?.result?.content);
    const key = content && Object.keys(content)[0];
    if (!key) return false;
    content[key] = retyped(content[key]);
    return true;
  },
  "result key dropped": (run) => {
    const result = resultOf(run);
    const key = ["rejectedBy", "code", "content"].find((k) => k in result);
    if (!key) return false;
    delete result[key];
    return true;
  },
  "rejectedBy moved to the other layer": (run) => {
    const result = resultOf(run);
    if (result.rejectedBy === undefined) return false;
    result.rejectedBy = result.rejectedBy === "sdk" ? "app" : "sdk";
    return true;
  },
  "reply error code retyped": (run) => {
    const error = (replyOf(run)?.message as { error?: { code: unknown } } | undefined)?.error;
    if (!error) return false;
    error.code = String(error.code);
    return true;
  },
};

test("every corruption of real vocabulary evidence is rejected, type changes included", () => {
  const survivors: string[] = [];
  let made = 0;
  for (const v of VOCABULARY_CASES) {
    for (const [label, corrupt] of Object.entries(CORRUPTIONS)) {
      const run = copy(runs.get(v.name)!);
      if (!corrupt(run)) continue;
      made++;
      if (failures(v, run).length === 0) survivors.push(`${v.name}: ${label}`);
    }
  }
  console.log(`\n  vocabulary corruptions: ${made - survivors.length}/${made} rejected`);
  assert.ok(made >= VOCABULARY_CASES.length * 2, `${made} corruptions made`);
  assert.equal(survivors, [], `corruptions that went unnoticed: ${survivors.join(", ")}`);
});

test("the layer check alone catches a refusal claimed for the wrong layer", () => {
  const v = findVocabularyCase("multi_untitled.duplicate")!;
  const wrong = { ...expectations.get(v.name)!, refusedBy: "server SDK" as const };
  assert.ok(failures(v, runs.get(v.name)!, wrong).some((f) => f.startsWith("refused by (layer)")));
});

test("changing any value in a ts1 vocabulary file makes its real runs fail", () => {
  const survivors: string[] = [];
  let checked = 0;
  for (const k of FIELD_KINDS) {
    const file = vocabularyPath(k.name);
    const doc = JSON.parse(readFileSync(file, "utf8")) as Json;
    const result = survivingChanges(doc, (changed) => {
      try {
        const parsed = checkVocabularyFile(parseExpectation(changed, file, VocabularyFile), file, k.name, "ts1");
        return casesOfKind(k.name).some((v) => failures(v, runs.get(v.name)!, vocabularyExpectation(parsed, v)).length > 0);
      } catch (error) {
        return error instanceof ExpectationError;
      }
    });
    checked += result.checked;
    survivors.push(...result.survivors.map((s) => `${k.name}: ${s}`));
  }
  assert.ok(checked >= 200, `${checked} values checked`);
  assert.equal(survivors, [], `changes that went unnoticed: ${survivors.join(", ")}`);
});

test("a malformed or incomplete vocabulary file is refused in one line naming the file", () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-vocab-"));
  try {
    const good = JSON.parse(readFileSync(vocabularyPath("integer"), "utf8"));
    const write = (doc: unknown) => {
      mkdirSync(join(dir, "contract", "vocabulary"), { recursive: true });
      writeFileSync(join(dir, "contract", "vocabulary", "integer.json"), typeof doc === "string" ? doc : JSON.stringify(doc));
    };
    const refused = (doc: unknown, pattern: RegExp) => {
      write(doc);
      try {
        loadVocabularyFile("integer", dir, "ts1");
        assert.unreachable(`accepted: ${pattern}`);
      } catch (error) {
        assert.instance(error, ExpectationError);
        const message = (error as Error).message;
        assert.not.match(message, "\n");
        assert.match(message, "integer.json");
        assert.match(message, pattern);
      }
    };
    refused("{", /not valid JSON/);
    refused({ ...good, extra: 1 }, /\$\.extra: unknown key/);
    refused({ ...good, cases: { ...good.cases, valid: { ...good.cases.valid, refusedBy: "nobody" } } }, /\$\.cases\.valid\.refusedBy/);
    const { fraction: _gone, ...fewer } = good.cases;
    refused({ ...good, cases: fewer }, /no expectation for case integer\.fraction/);
    refused({ ...good, cases: { ...good.cases, halfway: good.cases.valid } }, /unknown case integer\.halfway/);
    refused({ ...good, kind: "number" }, /names kind number/);
    refused({ ...good, servers: ["py"] }, /written for server py, not ts1/);
    refused({ ...good, requestedSchema: null }, /requestedSchema is null/);
    rmSync(join(dir, "contract"), { recursive: true });
    assert.throws(() => loadVocabularyFile("integer", dir, "ts1"), (e: Error) => e instanceof ExpectationError && /no vocabulary expectation written for kind integer/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("contract names a kind, prints the layer words, and says which groups it skipped", async () => {
  const out = mkdtempSync(join(tmpdir(), "lab-vocab-out-"));
  const expected = mkdtempSync(join(tmpdir(), "lab-vocab-expected-"));
  try {
    const r = await runMain(["contract", "multi_untitled", "--transport", "memory", "--json", "--out", out]);
    assert.is(r.code, 0, r.stdout + r.stderr);
    const rows = JSON.parse(r.stdout).rows as { case: string; refusedBy: string }[];
    assert.equal(rows.map((x) => [x.case, x.refusedBy]), casesOfKind("multi_untitled").map((v) => [v.name, expectations.get(v.name)!.refusedBy]));
    // only the boolean file written for ts1: the default run is that kind, and the rest is named as skipped
    mkdirSync(join(expected, "contract", "vocabulary"), { recursive: true });
    writeFileSync(join(expected, "contract", "vocabulary", "boolean.json"), readFileSync(vocabularyPath("boolean")));
    const d = await runMain(["contract", "--transport", "memory", "--expected", expected, "--out", out]);
    assert.is(d.code, 0, d.stdout + d.stderr);
    assert.match(d.stdout, /^skipped for server ts1: calculate \(no <case>\.json in .*\); vocabulary kinds text, email, .*array_of_numbers \(no file in /m);
    assert.match(d.stdout, /boolean\.string_true\s+memory\s+accept\s+invalid_content\s+-\s+-\s+server SDK\s+server SDK: elicitInput/);
    assert.match(d.stdout, /3\/3 runs hold their contract/);
    // the findings table from the same files: a ts1 column only, the other servers named
    const t = await runMain(["vocabulary", "--expected", expected, "--out", out]);
    assert.is(t.code, 0, t.stdout + t.stderr);
    assert.match(t.stdout, /^\| case \| the callback accepts \| ts1 \(memory\) \|$/m);
    assert.match(t.stdout, /^\| boolean\.one \| `\{"value":1\}` \| server SDK \|$/m);
    assert.match(t.stdout, /3\/3 runs hold .*No column: .*py \(no files in/);
    assert.is((await runMain(["vocabulary", "--bogus"])).code, 2);
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(expected, { recursive: true, force: true });
  }
});

test.run();
