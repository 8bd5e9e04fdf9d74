// The real Python SDK 1.29.0 client (py1), the SDK the deadlock was first seen in, in ONE shared run:
// nested over stdio against the ts1 server (in the lab's process, so the server's frames are on the
// timeline). It must pass its hand-written expectation; the tools/list reply must be on the wire
// before the limit and be read only after the callback answered; the serial model must tell its
// story with every difference named; and corrupted copies of this evidence must be rejected.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectationFor } from "../lab/check/expectations.js";
import { compareModelWithReal, storyFacts } from "../lab/check/model-vs-real.js";
import { verify } from "../lab/check/verify.js";
import { PY1_CLIENT } from "../lab/peers/py1/index.js";
import { readVersions } from "../lab/peers/versions.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import { findScenario } from "../scenarios/index.js";
import { copy, memoryRun } from "./support/runs.js";
import { needs } from "./support/needs.js";

/** a test that needs PY1_CLIENT: without it, a named skip (under CI=true, a failure) */
const py1Test = needs(PY1_CLIENT);
let shared: Promise<RunRecord> | undefined;
const real = () =>
  (shared ??= runCase(findScenario("nested")!, "sdk", { client: PY1_CLIENT, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((r) => r.runs[0]!));
const failures = (run: RunRecord) => run.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);
const expected = () => expectationFor("nested", "sdk", { client: "py1", server: "ts1" })!.expectation;

py1Test("py1 can run here (npm ci sets up .venv-py1; CI must not skip it)", () => {
  real().catch(() => undefined);
});

py1Test("py1 nested against ts1: passes expected/nested.sdk.py1.ts1.json, 408 and no cancel on the wire", async () => {
  const run = await real();
  assert.equal(failures(run), []);
  assert.is(run.events.find((e) => e.kind === "nested.failed")?.detail?.code, 408);
  assert.not.ok(run.wire.some((f) => f.label.method === "notifications/cancelled"));
});

py1Test("py1: the reply is on the wire before the limit and read only after the callback answered", async () => {
  const facts = storyFacts(await real());
  assert.ok(facts.replyBeforeLimit);
  assert.ok(facts.replyReadAfterAnswer);
  assert.is(facts.lateReply, "handed to the message handler");
});

py1Test("model vs real 1.29.0: every difference is named with its reason, none of ordering", async () => {
  const model = storyFacts(await memoryRun("nested", "serial"));
  const verdict = compareModelWithReal(model, storyFacts(await real()), "model-vs-py1");
  assert.ok(verdict.ok, JSON.stringify(verdict.facts, null, 2));
  assert.equal(verdict.facts.filter((f) => !f.same).map((f) => f.fact), ["errorCode", "cancelNotice", "lateReply", "clientFrames"]);
  assert.ok(verdict.facts.every((f) => f.same || (f.allowed ?? "").length > 40));
});

py1Test("corrupted py1 evidence is rejected by its expectation and by the model check", async () => {
  const model = storyFacts(await memoryRun("nested", "serial"));
  const run = await real();
  // the late reply read BEFORE the callback answered (a concurrent loop's story)
  const early = copy(run);
  const note = early.events.find((e) => e.kind === "note" && e.detail?.lateReply === true)!;
  note.t = early.events.find((e) => e.kind === "nested.sent")!.t + 0.01;
  early.events.sort((a, b) => a.t - b.t).forEach((e, i) => (e.seq = i));
  assert.ok(verify(early, expected()).some((v) => !v.ok && v.check.startsWith("order")));
  const verdict = compareModelWithReal(model, storyFacts(early), "model-vs-py1");
  assert.equal(verdict.facts.filter((f) => !f.same && !f.allowed).map((f) => f.fact), ["replyReadAfterAnswer"]);
  // an extra client frame other than a cancel (here: a second initialize) is not allowed
  const extra = copy(run);
  extra.wire.push({ ...extra.wire[0]!, index: extra.wire.length });
  assert.equal(compareModelWithReal(model, storyFacts(extra), "model-vs-py1").facts.filter((f) => !f.same && !f.allowed).map((f) => f.fact), ["clientFrames"]);
});

test.run();
