// The JVM peers (lab/peers/jvm/): a missing build is one line in `unavailable()`; ONE real
// kotlin-0.14 run (nested, against ts1, over stdio), shared by the tests here: the Kotlin SDK
// 0.14.0 deadlocks on the nested request inside its elicitation handler until the driver's own
// backstop ends the wait, and the serial model tells its story beside it with each difference named;
// and ONE real java run (the same case): the Java SDK 2.0.1 reads the nested reply while its async
// handler waits. Each expectation rejects its run's evidence corrupted.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectationFor } from "../lab/check/expectations.js";
import { resultsOf, verify } from "../lab/check/verify.js";
import { buildProblem } from "../lab/peers/cached-build.js";
import { JVM_BUILD } from "../lab/peers/jvm/build.js";
import { JAVA_CLIENT, JAVA_SYNC_CLIENT, KOTLIN_014_CLIENT, KOTLIN_CLIENT } from "../lab/peers/jvm/index.js";
import { TS1_SERVER } from "../lab/peers/ts1/index.js";
import { readVersions } from "../lab/peers/versions.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import { findScenario } from "../scenarios/index.js";
import { compareModelWithReal, storyFacts } from "../lab/check/model-vs-real.js";
import { Recorder } from "../lab/history/timeline.js";
import { readDriverEvents } from "../lab/plan/read-driver-events.js";
import { copy, memoryRun } from "./support/runs.js";
import { sharedRuns } from "./support/shared-runs.js";
import { needs } from "./support/needs.js";

/** a test that needs the JVM build (npm run setup, with mvn): without it, a named skip (under CI=true, a failure) */
const jvmTest = needs([KOTLIN_014_CLIENT, KOTLIN_CLIENT, JAVA_CLIENT, JAVA_SYNC_CLIENT]);
/** Two JVMs at once: a JVM's start is mostly CPU, and most of these runs is waiting (the 0.14.0
 *  runs wait out backstops and serial callbacks); every claim here is an order or a count. */
const runs = sharedRuns<RunRecord>(2);
const runOf = (name: string, client: typeof KOTLIN_CLIENT): Promise<RunRecord> =>
  runs.get(`${name}.${client.name}`, () => runCase(findScenario(name)!, "sdk", { client, server: TS1_SERVER, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((c) => c.runs[0]!));
const run = () => runOf("nested", KOTLIN_014_CLIENT);
const javaRun = () => runOf("nested", JAVA_CLIENT);
// every run this file reads, started when its tests begin (the longest first)
test.before(() => {
  if (jvmTest.missing) return;
  for (const [name, client] of [["sampling-fan-out", KOTLIN_014_CLIENT], ["nested", KOTLIN_014_CLIENT], ["roots-nested", KOTLIN_014_CLIENT], ["sampling-nested", KOTLIN_CLIENT], ["nested", JAVA_CLIENT], ["fan-out", JAVA_SYNC_CLIENT]] as const)
    void runOf(name, client);
  return runs.settled();
});
const failures = (r: RunRecord) => r.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);

test("a JVM build whose jar is missing makes its peers unavailable, in one line naming the fix", () => {
  const line = buildProblem({ ...JVM_BUILD, outputs: [...JVM_BUILD.outputs, "/nonexistent/build/jvm/none.jar"] });
  assert.ok(line !== undefined);
  assert.not.match(line, "\n");
  assert.match(line, /^jvm is not built \(.*none\.jar missing\): run `npm run setup` on a machine with mvn$/);
  // and the stamp: a changed input means an old build
  assert.is(buildProblem({ ...JVM_BUILD, toolchain: ["mvn", "-v", "--changed"] }), "jvm's build is older than its sources: run `npm run setup`");
});

jvmTest("kotlin-0.14 and kotlin can run here (npm run setup built them)", () => {
  run().catch(() => undefined); // reported by the tests that read it
});

jvmTest("kotlin-0.14 -> ts1 (nested): passes expected/nested.sdk.kotlin-0.14.json; the nested wait ends by the driver's backstop, not the SDK's limit", async () => {
  const r = await run();
  assert.equal(failures(r), []);
  assert.is(r.fault, undefined);
  assert.equal(resultsOf(r.events), { first: { status: "cancelled", computed: false, value: null }, recovery: { status: "calculated", computed: true, value: 21 } });
  const failed = r.events.find((e) => e.kind === "nested.failed")!;
  // RequestOptions.timeout bounds only the send (Protocol.kt:505-509): the outer coroutine timeout fired
  assert.is(failed.detail?.type, "TimeoutCancellationException");
  assert.is(failed.detail?.code, null);
  // the reply was on the wire before the wait ended: the loop did not read it
  const reply = r.wire.find((f) => f.from === "server" && f.label.method === "tools/list" && f.label.frameType === "result");
  assert.ok(reply, "the nested reply is on the wire");
});

jvmTest("kotlin-0.14: the expectation rejects the real run with the nested request passed, or the callback leaving before it failed", async () => {
  const r = await run();
  const { expectation } = expectationFor("nested", "sdk", { client: "kotlin-0.14", server: "ts1" })!;
  const failed = (events: typeof r.events) => verify({ events, wire: r.wire, transport: "stdio" }, expectation).filter((v) => !v.ok).map((v) => v.check);
  assert.equal(failed(r.events), [], "the real run itself must pass");
  const passed = copy(r.events).map((e) => (e.kind === "nested.failed" ? { ...e, kind: "nested.ok" as const, detail: undefined } : e));
  assert.ok(failed(passed).includes("nested requests"), "a nested request that passed was accepted");
  const early = copy(r.events);
  const left = early.find((e) => e.kind === "callback.left" && e.detail?.call === "first")!;
  const nested = early.find((e) => e.kind === "nested.failed")!;
  [left.seq, nested.seq] = [nested.seq, left.seq];
  assert.ok(failed(early).some((c) => c.startsWith("order: the callback gives up only after the nested request failed")), "a callback that left before its nested request failed was accepted");
});

// Sampling and roots (lab/peers/jvm/kotlin/Callbacks.kt): one real run each, against ts1 over stdio,
// one JVM at a time after the nested run. 0.14.0 awaits each handler in its read loop
// (Protocol.kt:241-249); 0.15.0 launches it (Protocol.kt:465, after Client.kt:226).
const fanOut014 = () => runOf("sampling-fan-out", KOTLIN_014_CLIENT);
const sampling015 = () => runOf("sampling-nested", KOTLIN_CLIENT);
const roots014 = () => runOf("roots-nested", KOTLIN_014_CLIENT);
const replyFor = (r: RunRecord, method: string) => {
  const asked = r.wire.find((f) => f.from === "server" && f.label.method === method && f.label.frameType === "request")!;
  return r.wire.find((f) => f.replyTo === asked.index)?.message as { result?: Record<string, unknown> } | undefined;
};

jvmTest("kotlin-0.14 -> ts1 (sampling-fan-out): passes; five sampling callbacks one at a time, each after the last one left", async () => {
  const r = await fanOut014();
  assert.equal(failures(r), []);
  assert.is(r.fault, undefined);
  assert.equal(resultsOf(r.events), { first: { status: "all_answered", requests: 5, answered: 5 } });
  const seq = r.events.filter((e) => e.kind === "callback.entered" || e.kind === "callback.left").map((e) => e.kind);
  assert.equal(seq, Array(5).fill(["callback.entered", "callback.left"]).flat());
  // the expectation rejects the same run with callback 2 entered before callback 1 left
  const { expectation } = expectationFor("sampling-fan-out", "sdk", { client: "kotlin-0.14", server: "ts1" })!;
  const overlapped = copy(r.events);
  const left1 = overlapped.filter((e) => e.kind === "callback.left")[0]!;
  const entered2 = overlapped.filter((e) => e.kind === "callback.entered")[1]!;
  [left1.seq, entered2.seq] = [entered2.seq, left1.seq];
  const failed = verify({ events: overlapped, wire: r.wire, transport: "stdio" }, expectation).filter((v) => !v.ok).map((v) => v.check);
  assert.ok(failed.length > 0, "overlapping sampling callbacks were accepted for kotlin-0.14");
});

jvmTest("kotlin -> ts1 (sampling-nested): passes; the nested tools/list completes and the answer is the SDK's CreateMessageResult of the synthetic words", async () => {
  const r = await sampling015();
  assert.equal(failures(r), []);
  assert.is(r.fault, undefined);
  assert.ok(r.events.some((e) => e.kind === "nested.ok"), "the nested request returned");
  // 0.15.0 launches the handler (Protocol.kt:465): its transport reads the nested reply while the callback runs
  const read = nestedReplyRead(r, "sampling/createMessage");
  const [entered, left] = ["callback.entered", "callback.left"].map((k) => r.events.find((e) => e.kind === k)!);
  assert.ok(read && entered!.seq < read.seq && read.seq < left!.seq, "the reply was read inside the callback");
  assert.equal(replyFor(r, "sampling/createMessage")?.result, {
    role: "assistant", content: { type: "text", text: "synthetic completion (no model was called)" }, model: "lab-synthetic", stopReason: "endTurn",
  });
  const { expectation } = expectationFor("sampling-nested", "sdk", { client: "kotlin", server: "ts1" })!;
  const timedOut = copy(r.events).map((e) => (e.kind === "nested.ok" ? { ...e, kind: "nested.failed" as const, detail: { code: -32001, message: "timed out", type: "McpException" } } : e));
  const failed = verify({ events: timedOut, wire: r.wire, transport: "stdio" }, expectation).filter((v) => !v.ok).map((v) => v.check);
  assert.ok(failed.includes("nested requests"), "a nested request that failed was accepted for kotlin");
});

jvmTest("kotlin-0.14 -> ts1 (roots-nested): passes; the nested wait ends by the driver's backstop, then the two synthetic roots are answered", async () => {
  const r = await roots014();
  assert.equal(failures(r), []);
  assert.is(r.fault, undefined);
  const failed = r.events.find((e) => e.kind === "nested.failed")!;
  assert.is(failed.detail?.type, "TimeoutCancellationException");
  assert.is(failed.detail?.code, null);
  assert.equal(replyFor(r, "roots/list")?.result, {
    roots: [{ uri: "file:///synthetic/lab-root-a", name: "lab-root-a" }, { uri: "file:///synthetic/lab-root-b", name: "lab-root-b" }],
  });
});

jvmTest("model vs real kotlin-0.14: each difference named (its timeout bounds only the send, its late reply is dropped silently); a removed cancel notice is unexplained", async () => {
  const model = storyFacts(await memoryRun("nested", "serial"));
  const r = await run();
  const verdict = compareModelWithReal(model, storyFacts(r), "model-vs-kotlin-0.14");
  assert.ok(verdict.ok, JSON.stringify(verdict.facts, null, 2));
  assert.equal(verdict.facts.filter((f) => !f.same).map((f) => f.fact), ["errorCode", "lateReply"]);
  // 0.14.0 cancels its own timed-out request on the wire (Protocol.kt:510-520), as the model does: without it, unexplained
  const silent = copy(r);
  silent.wire = silent.wire.filter((f) => f.label.method !== "notifications/cancelled");
  const bad = compareModelWithReal(model, storyFacts(silent), "model-vs-kotlin-0.14");
  assert.not.ok(bad.ok);
  assert.equal(bad.facts.filter((f) => !f.same && !f.allowed).map((f) => f.fact), ["cancelNotice", "clientFrames"]);
});

/** The client's read of the nested tools/list reply: the driver's frame.dispatched (Main.kt Observed), linked to its wire frame. */
function nestedReplyRead(r: RunRecord, asked: string) {
  const callback = r.wire.find((f) => f.from === "server" && f.label.method === asked && f.label.frameType === "request")!;
  const nested = r.wire.find((f) => f.index > callback.index && f.from === "client" && f.label.method === "tools/list")!;
  const reply = r.wire.find((f) => f.replyTo === nested.index)!;
  return r.events.find((e) => e.side === "client" && e.kind === "frame.dispatched" && e.frame === reply.index);
}

jvmTest("kotlin-0.14: the nested reply is read only after the callback answered (the driver's transport records each read); the model comparison rejects the real run with that read moved before the answer, or missing", async () => {
  const model = storyFacts(await memoryRun("nested", "serial"));
  const r = await run();
  const read = nestedReplyRead(r, "elicitation/create");
  assert.ok(read, "the driver recorded the SDK taking the nested reply from its transport");
  const left = r.events.find((e) => e.kind === "callback.left" && e.detail?.call === "first")!;
  const failed = r.events.find((e) => e.kind === "nested.failed")!;
  assert.ok(failed.seq < left.seq && left.seq < read.seq, "read after the callback answered, which it did after the backstop");
  assert.equal([storyFacts(r).replyReadAfterAnswer, storyFacts(r).lateReply], [true, "dropped silently"]);
  // corrupted: the reply read while the callback still waited (what 0.15.0's concurrent dispatch does)
  const early = copy(r);
  const earlyRead = early.events.find((e) => e.seq === read.seq)!;
  const earlyLeft = early.events.find((e) => e.seq === left.seq)!;
  [earlyLeft.seq, earlyRead.seq] = [earlyRead.seq, earlyLeft.seq];
  const bad = compareModelWithReal(model, storyFacts(early), "model-vs-kotlin-0.14");
  assert.not.ok(bad.ok);
  assert.equal(bad.facts.filter((f) => !f.same && !f.allowed).map((f) => f.fact), ["replyReadAfterAnswer"]);
  // corrupted: no read recorded: the late reply is not seen, and "dropped silently" allows nothing else
  const unread = copy(r);
  unread.events = unread.events.filter((e) => e.seq !== read.seq);
  const none = compareModelWithReal(model, storyFacts(unread), "model-vs-kotlin-0.14");
  assert.equal(none.facts.filter((f) => !f.same && !f.allowed).map((f) => f.fact), ["lateReply", "replyReadAfterAnswer"]);
});

jvmTest("kotlin-0.14: a driver's frame.dispatched is linked to the frame the lab sent it, and refused, naming it, when it names another", async () => {
  const r = await run();
  const withWire = () => {
    const recorder = new Recorder();
    recorder.wire.push(...copy(r.wire));
    return recorder;
  };
  const first = r.wire.find((f) => f.to === "client")!;
  const linked = withWire();
  assert.equal(readDriverEvents(`{"t_ns":1,"kind":"frame.dispatched","id":${JSON.stringify(first.label.id)}}`, linked, "e.jsonl"), []);
  assert.is(linked.events[0]?.frame, first.index, "linked to the lab's wire frame");
  assert.match(readDriverEvents('{"t_ns":1,"kind":"frame.dispatched","id":"not-sent"}', withWire(), "e.jsonl").join(), /frame\.dispatched #1 .*not-sent.* is not the frame the lab sent the client #1/);
  assert.match(readDriverEvents('{"t_ns":1,"kind":"frame.dispatched","id":"not-sent"}', new Recorder(), "e.jsonl").join(), /\(none\)$/);
});

jvmTest("java can run here (npm run setup built it)", () => {
  javaRun().catch(() => undefined); // reported by the tests that read it
});

jvmTest("java -> ts1 (nested): passes expected/nested.sdk.java.json; the nested tools/list completes inside the callback", async () => {
  const r = await javaRun();
  assert.equal(failures(r), []);
  assert.is(r.fault, undefined);
  assert.equal(resultsOf(r.events), { first: { status: "calculated", computed: true, value: 21 }, recovery: { status: "calculated", computed: true, value: 21 } });
  assert.ok(r.events.some((e) => e.kind === "nested.ok"), "the nested request returned");
  assert.not.ok(r.events.some((e) => e.kind === "nested.failed"));
  // the client sends no notifications/cancelled at all: mcp-core 2.0.1 has no such method
  assert.not.ok(r.wire.some((f) => f.label.method === "notifications/cancelled"));
});

jvmTest("java: the expectation rejects the real run with the nested request failed, or the callback answering before it returned", async () => {
  const r = await javaRun();
  const { expectation } = expectationFor("nested", "sdk", { client: "java", server: "ts1" })!;
  const failed = (events: typeof r.events) => verify({ events, wire: r.wire, transport: "stdio" }, expectation).filter((v) => !v.ok).map((v) => v.check);
  assert.equal(failed(r.events), [], "the real run itself must pass");
  const timedOut = copy(r.events).map((e) => (e.kind === "nested.ok" ? { ...e, kind: "nested.failed" as const, detail: { code: null, message: "Did not observe any item", type: "TimeoutException" } } : e));
  assert.ok(failed(timedOut).includes("nested requests"), "a nested request that failed was accepted");
  const early = copy(r.events);
  const left = early.find((e) => e.kind === "callback.left" && e.detail?.call === "first")!;
  const ok = early.find((e) => e.kind === "nested.ok")!;
  [left.seq, ok.seq] = [ok.seq, left.seq];
  assert.ok(failed(early).some((c) => c.startsWith("order: the nested request returns inside the callback")), "a callback that answered before its nested request returned was accepted");
});

jvmTest("java-sync -> ts1 (fan-out): passes; each blocking callback, run later on boundedElastic, carries its own request's id", async () => {
  const r = await runOf("fan-out", JAVA_SYNC_CLIENT);
  assert.equal(failures(r), []);
  // OwnStdio ties each id to the request object the SDK unmarshalled on the reading thread: the last id read
  // would name the same request for several callbacks once they overlap
  const asked = r.wire.filter((f) => f.from === "server" && f.label.method === "elicitation/create" && f.label.frameType === "request").map((f) => f.label.id);
  const entered = r.events.filter((e) => e.side === "client" && e.kind === "callback.entered").map((e) => e.id);
  assert.equal([...entered].sort(), [...asked].sort());
  assert.is(new Set(entered).size, entered.length);
});

jvmTest("kotlin's Client.close() ends whole: the lab ends the driver's stdin once it ended its stdout, as a stdio server exiting on EOF would; still the driver's own exit, not the lab's close", async () => {
  const r = await run();
  const evidence = r.transportEvidence;
  assert.is(evidence.kind, "relay");
  if (evidence.kind !== "relay") return;
  assert.is(evidence.driver.stdinEndedByPeerExit, true);
  assert.is(evidence.driver.exitedDuringSession, true, "it exited before the lab closed the session");
  const closed = r.events.filter((e) => e.kind === "note" && e.detail?.sessionClosed === true);
  assert.equal(closed.map((e) => e.detail?.readLoopEnded), [true], "the read loop saw EOF within the driver's 500 ms wait");
});

test.run();
