// go: the Go SDK v1.8.0 ClientSession, a driver in its own process built into build/go-client. ONE
// real run (nested, against the ts1 server's stdio child) is shared by the tests here: it passes its
// hand-written expectation, and that expectation rejects the run's evidence with the nested reply
// taken out. The same for sampling-nested and roots-nested (one run each), plus two plan variants of
// them: nothing declared (the server sends neither request) and declared without a plan (the
// callback answers an error). A missing build makes the peer unavailable in one line; a bad plan is
// one line, exit 2.
import "./support/child-pids.js";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectationFor } from "../lab/check/expectations.js";
import { peakCallbacks, resultsOf, verify } from "../lab/check/verify.js";
import { isReply } from "../lab/history/frames.js";
import { SYNTHETIC_COMPLETION, SYNTHETIC_ROOTS } from "../lab/plan/behaviour.js";
import { sdkText } from "../lab/plan/peer.js";
import { buildProblem, runCachedBuild } from "../lab/peers/cached-build.js";
import { GO_BUILD, GO_CLIENT, GO_CLIENT_BINARY } from "../lab/peers/go/index.js";
import { TS1_SERVER } from "../lab/peers/ts1/index.js";
import { readVersions } from "../lab/peers/versions.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import type { Scenario } from "../lab/plan/scenario.js";
import { findScenario } from "../scenarios/index.js";
import { copy } from "./support/runs.js";
import { needs } from "./support/needs.js";

/** a test that needs GO_CLIENT: without it, a named skip (under CI=true, a failure) */
const goTest = needs(GO_CLIENT);
let shared: Promise<RunRecord> | undefined;
const run = () =>
  (shared ??= runCase(findScenario("nested")!, "sdk", { client: GO_CLIENT, server: TS1_SERVER, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((r) => r.runs[0]!));
const failures = (r: RunRecord) => r.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);
const CALCULATED = { status: "calculated", computed: true, value: 21 };
const SUMMARIZED = { status: "summarized", text: "synthetic completion (no model was called)", model: "lab-synthetic" };

// One stdio run of a scenario (or a variant of it: a run is judged against the named scenario's
// expectation, which a variant's tests do not read) against the ts1 server's child.
const once = (scenario: Scenario) =>
  runCase(scenario, "sdk", { client: GO_CLIENT, server: TS1_SERVER, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((r) => r.runs[0]!);
const shares = new Map<string, Promise<RunRecord>>();
const runOf = (name: string, make: () => Scenario = () => findScenario(name)!) => {
  if (!shares.has(name)) shares.set(name, once(make()));
  return shares.get(name)!;
};
const declared = (r: RunRecord) =>
  r.wire.filter((f) => f.from === "client" && f.label.method === "initialize").map((f) => (f.message as unknown as { params: { capabilities: unknown } }).params.capabilities);
const askedOf = (r: RunRecord, method: string) =>
  r.wire.filter((f) => f.from === "server" && f.label.method === method && f.label.frameType === "request");
const replyOf = (r: RunRecord, asked: (typeof r.wire)[number]) =>
  r.wire.find((f) => f.from === "client" && isReply(f.label) && f.label.id === asked.label.id);

test("go names its SDK version as its build has it (lab/peers/installed.ts; tests/installed.test.ts)", () => {
  assert.match(sdkText(GO_CLIENT.sdk), goTest.missing === undefined ? /^go-sdk \(Go SDK\) v\d+\.\d+\.\d+$/ : /^go-sdk \(Go SDK\) not built \(pins v\d+\.\d+\.\d+\)$/);
  if (goTest.missing === undefined) run().catch(() => undefined); // reported by the tests that read it
});

goTest("go -> ts1 (nested, stdio): passes expected/nested.sdk.go.json; 21 twice; the nested tools/list completes", async () => {
  const r = await run();
  assert.equal(failures(r), []);
  assert.is(r.fault, undefined);
  assert.is(r.negotiatedProtocol, "2025-11-25");
  assert.equal(resultsOf(r.events), { first: CALCULATED, recovery: CALCULATED });
  // the driver's ids are the wire's: callback.entered names the server's elicitation/create ids
  const entered = r.events.filter((e) => e.kind === "callback.entered").map((e) => [e.id, e.origin]);
  const asked = r.wire.filter((f) => f.from === "server" && f.label.method === "elicitation/create" && f.label.frameType === "request").map((f) => [f.label.id, "server"]);
  assert.equal(entered, asked);
  assert.equal(entered.length, 2);
});

goTest("go: the expectation rejects the real run with the nested reply taken out", async () => {
  const r = await run();
  const { expectation } = expectationFor("nested", "sdk", { client: "go", server: "ts1" })!;
  const failed = (events: typeof r.events) => verify({ events, wire: r.wire, transport: "stdio" }, expectation).filter((v) => !v.ok).map((v) => v.check);
  assert.equal(failed(r.events), [], "the real run itself must pass");
  const dropped = copy(r.events).filter((e) => e.kind !== "nested.ok");
  assert.ok(failed(dropped).length > 0, "a run without nested.ok was accepted");
});

for (const [scenario, method, result] of [
  ["sampling-nested", "sampling/createMessage", SUMMARIZED],
  ["roots-nested", "roots/list", { status: "counted", roots: 2 }],
] as const) {
  goTest(`go -> ts1 (${scenario}, stdio): passes expected/${scenario}.sdk.go.json; declares exactly the plan's capability; the nested tools/list completes inside the callback`, async () => {
    const r = await runOf(scenario);
    assert.equal(failures(r), []);
    assert.is(r.fault, undefined);
    assert.equal(declared(r), [findScenario(scenario)!.capabilities]);
    assert.equal(resultsOf(r.events), { first: result });
    // the driver's ids are the wire's: callback.entered names the server's request ids
    const entered = r.events.filter((e) => e.kind === "callback.entered").map((e) => [e.id, e.method]);
    assert.equal(entered, askedOf(r, method).map((f) => [f.label.id, method]));
    assert.equal(r.events.filter((e) => e.kind === "callback.left").map((e) => e.detail?.["action"]), ["accept"]);
    const { expectation } = expectationFor(scenario, "sdk", { client: "go", server: "ts1" })!;
    const failed = (events: typeof r.events) => verify({ events, wire: r.wire, transport: "stdio" }, expectation).filter((v) => !v.ok);
    assert.equal(failed(r.events), [], "the real run itself must pass");
    assert.ok(failed(copy(r.events).filter((e) => e.kind !== "nested.ok")).length > 0, "a run without nested.ok was accepted");
  });
}

goTest("go -> ts1 (roots-nested): the roots/list reply is the SDK's ListRootsResult of the two synthetic roots", async () => {
  const r = await runOf("roots-nested");
  const reply = replyOf(r, askedOf(r, "roots/list")[0]!);
  assert.equal((reply?.message as { result?: unknown }).result, { roots: [...SYNTHETIC_ROOTS] });
});

goTest("go -> ts1 (sampling-nested): the createMessage reply is the SDK's CreateMessageResult of SYNTHETIC_COMPLETION", async () => {
  const r = await runOf("sampling-nested");
  const reply = replyOf(r, askedOf(r, "sampling/createMessage")[0]!);
  assert.equal((reply?.message as { result?: unknown }).result, { ...SYNTHETIC_COMPLETION });
});

// Both tools in one session: summarize then roots_count.
const both = (capabilities: Record<string, object>, planned: boolean): Scenario => ({
  name: "sampling-nested",
  summary: "a variant: summarize then roots_count",
  capabilities,
  listToolsFirst: false,
  calls: [
    { label: "first", tool: "summarize", ...(planned && { sampling: { delayMs: 0 } }) },
    { label: "second", tool: "roots_count", ...(planned && { roots: { delayMs: 0 } }) },
  ],
});

goTest("go: a plan that declares neither sampling nor roots declares neither at initialize, and the server asks for neither", async () => {
  const r = await runOf("go-undeclared", () => both({}, true));
  assert.equal(declared(r), [{}]);
  assert.equal(resultsOf(r.events), { first: { status: "unsupported", text: null }, second: { status: "unsupported", roots: null } });
  assert.equal([...askedOf(r, "sampling/createMessage"), ...askedOf(r, "roots/list")], []);
});

goTest("go: declared but no callback planned for the call: callback.left with an error, the request answered with an error", async () => {
  const r = await runOf("go-unplanned", () => both({ sampling: {}, roots: {} }, false));
  assert.equal(declared(r), [{ sampling: {}, roots: {} }]);
  const left = r.events.filter((e) => e.kind === "callback.left").map((e) => [e.method, e.detail?.["call"], e.detail?.["error"]]);
  assert.equal(left, [
    ["sampling/createMessage", "first", "no sampling/createMessage callback planned"],
    ["roots/list", "second", "no roots/list callback planned"],
  ]);
  for (const method of ["sampling/createMessage", "roots/list"]) {
    const reply = replyOf(r, askedOf(r, method)[0]!);
    assert.is((reply?.message as { error?: { code?: number } }).error?.code, -32600, method);
  }
  const results = resultsOf(r.events) as Record<string, { status?: string; code?: number }>;
  assert.equal([results["first"]?.status, results["first"]?.code, results["second"]?.status, results["second"]?.code], ["refused", -32600, "refused", -32600]);
});

goTest("go -> ts1 (sampling-fan-out, stdio): passes expected/sampling-fan-out.sdk.go.json; the five callbacks overlap", async () => {
  const r = await runOf("sampling-fan-out");
  assert.equal(failures(r), []);
  assert.ok(peakCallbacks(r.events) >= 2, `peak ${peakCallbacks(r.events)}`);
  assert.is(askedOf(r, "sampling/createMessage").length, 5);
});

test("a missing go build makes the peer unavailable in one line; a missing toolchain is one set-up line", async () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-go-"));
  try {
    const absent = { ...GO_BUILD, outputs: [join(dir, "go-client")] };
    const problem = buildProblem(absent);
    assert.ok(problem !== undefined && !problem.includes("\n"), String(problem));
    assert.match(problem!, /^go is not built \(.*go-client missing\): run `npm run setup`/);
    const line = await runCachedBuild({ ...GO_BUILD, toolchain: ["no-such-go-toolchain-here", "version"] });
    assert.is(line, "build go: skipped, no-such-go-toolchain-here is not installed (the go peer shows as unavailable)");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

goTest("the go driver refuses a plan with an unknown field in one line, exit 2", () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-go-"));
  try {
    const plan = join(dir, "plan.json");
    const good = { scenario: "x", capabilities: {}, listToolsFirst: false, calls: [{ label: "a" }], callTimeoutMs: 1000 };
    writeFileSync(plan, JSON.stringify({ ...good, surprise: true }));
    const r = spawnSync(GO_CLIENT_BINARY, ["--plan", plan, "--events", join(dir, "events.jsonl")], { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "pipe"] });
    assert.is(r.status, 2, r.stderr);
    assert.is(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, /^go-client: bad plan .*plan\.json: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
