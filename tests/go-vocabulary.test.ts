// The form vocabulary with the Go client (issue #26): its SDK checks the requestedSchema before the
// callback and the accepted content after it (mcp/client.go:884-904), so some wrong answers never
// reach the server. Three cases against the ts1 server over stdio: a refusal before the callback
// (nested_object), one after it (integer.below_minimum: the server's app words it as its own SDK's,
// the wire says the client's), and defaults the client fills in. Each passes its hand-written file
// (expected/contract/vocabulary-go/); a go file is not taken for the ts1 client; corrupted real
// evidence (the client's refusal turned into an accept) is rejected.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { verifyContract } from "../lab/check/contract.js";
import { readFileSync } from "node:fs";
import { ExpectationError, parseExpectation } from "../lab/check/expectations.js";
import { checkVocabularyFile, kindsWritten, loadVocabularyFile, vocabularyExpectation, vocabularyPath, VocabularyFile } from "../lab/check/vocabulary.js";
import { GO_CLIENT } from "../lab/peers/go/index.js";
import { TS1_SERVER } from "../lab/peers/ts1/index.js";
import { readVersions } from "../lab/peers/versions.js";
import { findVocabularyCase, type VocabularyCase } from "../lab/plan/vocabulary.js";
import type { RunRecord } from "../lab/session/pipeline.js";
import { runContractScenario } from "../lab/session/contract.js";
import { slots } from "../lab/session/slots.js";
import { KIND_NAMES, vocabularyScenario } from "../scenarios/contract/vocabulary.js";
import { copy } from "./support/runs.js";
import { needs } from "./support/needs.js";

const RUNS = ["nested_object.answered", "integer.below_minimum", "defaults.left_out"];
/** a test that needs GO_CLIENT: without it, a named skip (under CI=true, a failure) */
const goTest = needs(GO_CLIENT);
const inSlot = slots(2);
const runs = new Map<string, Promise<RunRecord>>();
const caseOf = (name: string): VocabularyCase => findVocabularyCase(name)!;
const expectationOf = (name: string) => vocabularyExpectation(loadVocabularyFile(caseOf(name).kind, undefined, "ts1", "go"), caseOf(name));
function run(name: string): Promise<RunRecord> {
  const v = caseOf(name);
  const make = async () =>
    (await runContractScenario(vocabularyScenario(v), expectationOf(name), vocabularyPath(v.kind, undefined, "ts1", "go"), { client: GO_CLIENT, server: TS1_SERVER, transports: ["stdio"], repeat: 1 }, readVersions())).runs[0]!;
  return runs.get(name) ?? runs.set(name, inSlot(make)).get(name)!;
}
const failures = (r: RunRecord) => r.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);

test("the go client's vocabulary files cover every kind against ts1 and are not taken for the ts1 client", () => {
  if (goTest.missing === undefined) for (const started of RUNS.map(run)) started.catch(() => undefined);
  assert.equal(kindsWritten(undefined, "ts1", "go").sort(), [...KIND_NAMES].sort());
  for (const kind of KIND_NAMES) assert.equal(loadVocabularyFile(kind, undefined, "ts1", "go").clients, ["go"]);
  // the go file read as the ts1 client's: refused for its clients, not silently applied
  const goFile = vocabularyPath("integer", undefined, "ts1", "go");
  assert.throws(() => checkVocabularyFile(parseExpectation(readFileSync(goFile, "utf8"), goFile, VocabularyFile), goFile, "integer", "ts1", "ts1"), (e: Error) => e instanceof ExpectationError && /written for client go, not ts1/.test(e.message));
});

for (const name of RUNS) {
  goTest(`go -> ts1, ${name}: passes its hand-written entry`, async () => {
    assert.equal(failures(await run(name)), []);
  });
}

goTest("go -> ts1, integer.below_minimum: the refusal is the client's on the wire; the same evidence with an accept instead fails", async () => {
  const real = await run("integer.below_minimum");
  const reply = real.wire.find((f) => f.from === "client" && f.label.frameType === "error");
  assert.ok(reply, "the client answered the elicitation/create with an error");
  assert.is((reply.message as { error: { code: number } }).error.code, -32602);
  const forged = copy(real);
  const at = forged.wire.findIndex((f) => f.index === reply.index);
  forged.wire[at] = { ...forged.wire[at]!, label: { ...forged.wire[at]!.label, frameType: "result" }, message: { jsonrpc: "2.0", id: (reply.message as { id: number }).id, result: { action: "accept", content: { value: 0 } } } as never };
  const verdicts = verifyContract(forged, expectationOf("integer.below_minimum"));
  assert.ok(verdicts.some((v) => !v.ok && /replies|refused by/.test(v.check)), JSON.stringify(verdicts.filter((v) => !v.ok)));
});

test.run();
