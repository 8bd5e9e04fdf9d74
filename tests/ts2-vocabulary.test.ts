// The form vocabulary against the v2 server (issue #16): every vocabulary case once, in memory
// (the ts1 client against the ts2 server in this process), each run shared by every test below;
// its hand-written expectations (expected/contract/ts2/vocabulary/), the v2 facts they rest on,
// and corruptions of the real evidence that the checks must reject. Stdio runs in .ci/run.
import { readFileSync } from "node:fs";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { elicitationReplies, verifyContract } from "../lab/check/contract.js";
import { ExpectationError, parseExpectation } from "../lab/check/expectations.js";
import { checkVocabularyFile, loadVocabularyExpectation, vocabularyExpectation, VocabularyFile, vocabularyPath } from "../lab/check/vocabulary.js";
import type { Verdict } from "../lab/check/verify.js";
import { TS2_SERVER } from "../lab/peers/ts2/index.js";
import { findVocabularyCase } from "../lab/plan/vocabulary.js";
import { runSession } from "../lab/session/session.js";
import { type SessionEvidence } from "../lab/plan/session.js";
import { openMemoryTransport } from "../lab/transports/memory.js";
import { casesOfKind, KIND_NAMES, vocabularyScenario } from "../scenarios/contract/vocabulary.js";
import { survivingChanges, type Json } from "../lab/check/mutations.js";

const SERVER = "ts2";
const runs = new Map<string, Promise<SessionEvidence>>();
function run(name: string): Promise<SessionEvidence> {
  if (!runs.has(name)) runs.set(name, runSession(vocabularyScenario(findVocabularyCase(name)!), openMemoryTransport, "memory", { loop: "sdk", server: TS2_SERVER }));
  return runs.get(name)!;
}
const failures = (verdicts: Verdict[]) => verdicts.filter((v) => !v.ok);
const check = async (name: string, evidence?: SessionEvidence) =>
  failures(verifyContract(evidence ?? (await run(name)), loadVocabularyExpectation(findVocabularyCase(name)!, undefined, SERVER)));
const resultOf = (e: SessionEvidence) => e.events.find((x) => x.kind === "tool.result")?.detail?.result as Record<string, unknown>;
const method = (m: unknown) => (m as { method?: string }).method;

for (const kind of KIND_NAMES) {
  test(`ts2 ${kind}: every case meets expected/contract/ts2/vocabulary/${kind}.json`, async () => {
    for (const v of casesOfKind(kind)) {
      const failed = await check(v.name);
      assert.equal(failed, [], `${v.name}: ${failed.map((f) => `${f.check}: ${f.details.join("; ")}`).join("\n")}`);
    }
  });
}

test("ts2 sends the nested and array-of-number schemas; the ts1 client refuses the request itself (-32603), the callback never runs", async () => {
  for (const name of ["nested_object.answered", "array_of_numbers.answered"]) {
    const e = await run(name);
    assert.is(e.wire.filter((f) => method(f.message) === "elicitation/create").length, 1, `${name}: sent`);
    assert.is(e.events.filter((x) => x.kind === "callback.entered").length, 0, `${name}: callback`);
    assert.equal(resultOf(e), { kind: name.split(".")[0], status: "protocol_error", code: -32603 });
  }
});

test("a duplicate item passes the v2 SDK (no uniqueItems) and only the app refuses it; with applyDefaults the client SDK fills in what the callback left out", async () => {
  assert.equal(resultOf(await run("multi_untitled.duplicate")), { kind: "multi_untitled", status: "invalid_content", rejectedBy: "app" });
  // The callback's fixture is {}; the reply the client SDK put on the wire, and what the app holds, have all six.
  assert.equal(findVocabularyCase("defaults.left_out_apply_defaults")!.content, {});
  const filled = await run("defaults.left_out_apply_defaults");
  const [reply] = elicitationReplies(filled.wire) as { result: { content: object } }[];
  assert.equal(Object.keys(reply!.result.content).sort(), ["colour", "colours", "count", "flag", "ratio", "text"]);
  assert.equal(resultOf(filled).content, reply!.result.content);
  assert.equal(resultOf(await run("defaults.left_out")), { kind: "defaults", status: "accepted", content: {} });
});

/** Real evidence of one run, changed in one place. */
function corrupt(e: SessionEvidence, change: (copy: SessionEvidence) => void): SessionEvidence {
  const copy = structuredClone(e);
  change(copy);
  return copy;
}

test("corrupted real evidence is rejected: the refusing layer, a type-aware value, the client's error code, a filled default", async () => {
  const dup = await run("multi_untitled.duplicate");
  const bySdk = corrupt(dup, (c) => (resultOf(c).rejectedBy = "sdk"));
  assert.ok((await check("multi_untitled.duplicate", bySdk)).some((f) => f.check === "refused by (layer)"), "app -> sdk");
  const valid = await run("boolean.valid");
  const one = corrupt(valid, (c) => ((resultOf(c).content as Record<string, unknown>).value = 1));
  assert.ok((await check("boolean.valid", one)).length > 0, "true -> 1");
  const nested = await run("nested_object.answered");
  const code = corrupt(nested, (c) => {
    const reply = c.wire.find((f) => f.from === "client" && (f.message as { error?: unknown }).error !== undefined)!;
    (reply.message as { error: { code: number } }).error.code = -32602;
  });
  assert.ok((await check("nested_object.answered", code)).some((f) => f.check === "elicitation replies on the wire"), "-32603 -> -32602");
  const filled = await run("defaults.left_out_apply_defaults");
  const lost = corrupt(filled, (c) => delete (resultOf(c).content as Record<string, unknown>).flag);
  assert.ok((await check("defaults.left_out_apply_defaults", lost)).length > 0, "a default dropped");
});

for (const kind of KIND_NAMES) {
  test(`changing any value in expected/contract/ts2/vocabulary/${kind}.json makes a real run fail`, async () => {
    const file = vocabularyPath(kind, undefined, SERVER);
    const doc = JSON.parse(readFileSync(file, "utf8")) as Json;
    const evidence = new Map(await Promise.all(casesOfKind(kind).map(async (v) => [v.name, await run(v.name)] as const)));
    const { checked, survivors } = survivingChanges(doc, (changed) => {
      try {
        const parsed = checkVocabularyFile(parseExpectation(changed, file, VocabularyFile), file, kind, SERVER);
        return casesOfKind(kind).some((v) => failures(verifyContract(evidence.get(v.name)!, vocabularyExpectation(parsed, v))).length > 0);
      } catch (error) {
        return error instanceof ExpectationError;
      }
    });
    assert.ok(checked >= 5, `${checked} values checked`);
    assert.equal(survivors, [], `changes that went unnoticed: ${survivors.join(", ")}`);
  });
}

test.run();
