// The form vocabulary against the Python server (issue #16), in the fewest runs that show what is
// Python's own: four cases over stdio (the ts1 client, as every contract case), two at a time:
// a coercion nobody refuses ("3" held as 3), defaults the server SDK fills in, an item repeated
// that only the app refuses, and a nested field the SDK refuses before sending. Each passes its
// hand-written file, every value of its entry matters, and corrupted real evidence is rejected.
// The full py vocabulary (every case) runs in .ci/run (`contract --server py --transport all`).
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { runContractScenario } from "../lab/session/contract.js";
import { verifyContract } from "../lab/check/contract.js";
import { ExpectationError, parseExpectation } from "../lab/check/expectations.js";
import { checkVocabularyFile, loadVocabularyFile, vocabularyExpectation, vocabularyPath, VocabularyFile } from "../lab/check/vocabulary.js";
import { replyTo } from "../lab/check/verify.js";
import { resultOf } from "../lab/history/frames.js";
import { PY_SERVER } from "../lab/peers/py/index.js";
import { findVocabularyCase, type VocabularyCase } from "../lab/plan/vocabulary.js";
import { readVersions } from "../lab/peers/versions.js";
import type { RunRecord } from "../lab/session/pipeline.js";
import { caseKey, KIND_NAMES, vocabularyScenario } from "../scenarios/contract/vocabulary.js";
import { survivingChanges, type Json } from "../lab/check/mutations.js";
import { slots } from "../lab/session/slots.js";
import { copy } from "./support/runs.js";
import { needs } from "./support/needs.js";

const RUNS = ["integer.string_digits", "defaults.left_out", "multi_untitled.duplicate", "nested_object.answered"];
/** a test that needs PY_SERVER: without it, a named skip (under CI=true, a failure) */
const pyTest = needs(PY_SERVER);
const runs = new Map<string, Promise<RunRecord>>();
/** Two Python runs at a time. */
const inSlot = slots(2);
const caseOf = (name: string): VocabularyCase => findVocabularyCase(name)!;
function run(name: string): Promise<RunRecord> {
  const v = caseOf(name);
  const make = async () => {
    const report = await runContractScenario(vocabularyScenario(v), vocabularyExpectation(loadVocabularyFile(v.kind, undefined, "py"), v),
      vocabularyPath(v.kind, undefined, "py"), { server: PY_SERVER, transports: ["stdio"], repeat: 1 }, readVersions());
    return report.runs[0]!;
  };
  return runs.get(name) ?? runs.set(name, inSlot(make)).get(name)!;
}
const failures = (r: RunRecord) => r.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);
const failed = (r: RunRecord, name: string) => verifyContract(r, vocabularyExpectation(loadVocabularyFile(caseOf(name).kind, undefined, "py"), caseOf(name))).some((v) => !v.ok);

test("the py server has a vocabulary file for every kind, naming server py", () => {
  if (pyTest.missing === undefined) for (const started of RUNS.map(run)) started.catch(() => undefined); // each test awaits the runs it reads
  for (const kind of KIND_NAMES) assert.equal(loadVocabularyFile(kind, undefined, "py").servers, ["py"]);
  const file = vocabularyPath("integer", undefined, "py");
  try {
    checkVocabularyFile(parseExpectation(readFileSync(file, "utf8"), file, VocabularyFile), file, "integer", "ts1");
    assert.unreachable("the py file was taken for the ts1 server");
  } catch (error) {
    assert.instance(error, ExpectationError);
  }
});

for (const name of RUNS) {
  pyTest(`${name} against the py server (ts1 client, stdio): passes, and changing any value of its entry fails it`, async () => {
    const real = await run(name);
    assert.equal(failures(real), []);
    const v = caseOf(name);
    const file = vocabularyPath(v.kind, undefined, "py");
    const doc = JSON.parse(readFileSync(file, "utf8")) as Record<string, Json> & { cases: Record<string, Json> };
    // the kind, the wire schema and this case's entry; the other cases' entries speak for other runs
    const part = { kind: doc.kind!, requestedSchema: doc.requestedSchema!, entry: doc.cases[caseKey(v)]! };
    const { checked, survivors } = survivingChanges(part, (changed) => {
      const p = JSON.parse(changed) as typeof part;
      const whole = JSON.stringify({ ...doc, kind: p.kind, requestedSchema: p.requestedSchema, cases: { ...doc.cases, [caseKey(v)]: p.entry } });
      try {
        const checkedDoc = checkVocabularyFile(parseExpectation(whole, file, VocabularyFile), file, v.kind, "py");
        return verifyContract(real, vocabularyExpectation(checkedDoc, v)).some((x) => !x.ok);
      } catch (error) {
        return error instanceof ExpectationError;
      }
    });
    assert.ok(checked >= 8, `${checked} values checked`);
    assert.equal(survivors, [], `changes that went unnoticed: ${survivors.join(", ")}`);
  });
}

type Result = Record<string, unknown>;
const toolResult = (r: RunRecord) => r.events.find((e) => e.kind === "tool.result")!.detail!.result as Result;
/** The content the client's reply to elicitation/create carries on the wire. */
const replyContent = (r: RunRecord) => {
  const request = r.wire.find((f) => f.from === "server" && f.label.method === "elicitation/create")!;
  return resultOf(replyTo(r.wire, request)!.message)!.content as Result;
};

pyTest("corrupted real py evidence is rejected: coercion, filled defaults, the refusing layer, the unsent form", async () => {
  const corrupt = async (name: string, change: (r: RunRecord) => void) => {
    const r = copy(await run(name));
    change(r);
    return failed(r, name);
  };
  // the app must hold the int 3; "3" (what the client sent) would mean no coercion happened
  assert.ok(await corrupt("integer.string_digits", (r) => void ((toolResult(r).content as Result).value = "3")), "content \"3\" for 3");
  // and the wire must carry the string the client sent, not the number the app holds
  assert.ok(await corrupt("integer.string_digits", (r) => void (replyContent(r).value = 3)), "reply 3 for \"3\"");
  // a default the server SDK filled in, taken away
  assert.ok(await corrupt("defaults.left_out", (r) => void delete (toolResult(r).content as Result).flag), "a filled default missing");
  // the client filling the defaults instead (the reply is {} when applyDefaults is not declared)
  assert.ok(await corrupt("defaults.left_out", (r) => void (replyContent(r).flag = true)), "a default in the reply");
  // the repeated item refused by the server SDK instead of the app
  assert.ok(await corrupt("multi_untitled.duplicate", (r) => void (toolResult(r).rejectedBy = "sdk")), "rejectedBy sdk for app");
  // refused before sending, reported as refused after an answer
  assert.ok(await corrupt("nested_object.answered", (r) => void Object.assign(toolResult(r), { status: "invalid_content", rejectedBy: "sdk" })), "not_sent as invalid_content");
  // the uncorrupted copies pass
  for (const name of RUNS) assert.not.ok(await corrupt(name, () => undefined), `${name}: the real evidence passes`);
});

test.run();
