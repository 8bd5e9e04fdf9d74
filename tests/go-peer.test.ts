// go: the Go SDK v1.8.0 ClientSession, a driver in its own process built into build/go-client. ONE
// real run (nested, against the ts1 server's stdio child) is shared by the tests here: it passes its
// hand-written expectation, and that expectation rejects the run's evidence with the nested reply
// taken out. A missing build makes the peer unavailable in one line; a bad plan is one line, exit 2.
import "./support/child-pids.js";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectationFor } from "../lab/check/expectations.js";
import { resultsOf, verify } from "../lab/check/verify.js";
import { buildProblem, runCachedBuild } from "../lab/peers/cached-build.js";
import { GO_BUILD, GO_CLIENT, GO_CLIENT_BINARY } from "../lab/peers/go/index.js";
import { TS1_SERVER } from "../lab/peers/ts1/index.js";
import { readVersions } from "../lab/peers/versions.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import { findScenario } from "../scenarios/index.js";
import { copy } from "./support/runs.js";

const missing = GO_CLIENT.unavailable();
let shared: Promise<RunRecord> | undefined;
const run = () =>
  (shared ??= runCase(findScenario("nested")!, "sdk", { client: GO_CLIENT, server: TS1_SERVER, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((r) => r.runs[0]!));
const failures = (r: RunRecord) => r.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);
const CALCULATED = { status: "calculated", computed: true, value: 21 };

test("go is built here and names its SDK version from go.mod", () => {
  assert.is(missing, undefined, missing);
  assert.match(GO_CLIENT.sdk, /^go-sdk \(Go SDK\) v\d+\.\d+\.\d+$/);
  run().catch(() => undefined); // reported by the tests that read it
});

test("go -> ts1 (nested, stdio): passes expected/nested.sdk.go.json; 21 twice; the nested tools/list completes", async () => {
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

test("go: the expectation rejects the real run with the nested reply taken out", async () => {
  const r = await run();
  const { expectation } = expectationFor("nested", "sdk", { client: "go", server: "ts1" })!;
  const failed = (events: typeof r.events) => verify({ events, wire: r.wire, transport: "stdio" }, expectation).filter((v) => !v.ok).map((v) => v.check);
  assert.equal(failed(r.events), [], "the real run itself must pass");
  const dropped = copy(r.events).filter((e) => e.kind !== "nested.ok");
  assert.ok(failed(dropped).length > 0, "a run without nested.ok was accepted");
});

test("a missing go build makes the peer unavailable in one line; a missing toolchain is one set-up line", () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-go-"));
  try {
    const absent = { ...GO_BUILD, outputs: [join(dir, "go-client")] };
    const problem = buildProblem(absent);
    assert.ok(problem !== undefined && !problem.includes("\n"), String(problem));
    assert.match(problem!, /^go is not built \(.*go-client missing\): run `npm run setup`/);
    const line = runCachedBuild({ ...GO_BUILD, toolchain: ["no-such-go-toolchain-here", "version"] });
    assert.is(line, "build go: skipped, no-such-go-toolchain-here is not installed (the go peer shows as unavailable)");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the go driver refuses a plan with an unknown field in one line, exit 2", () => {
  assert.is(missing, undefined, missing);
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
