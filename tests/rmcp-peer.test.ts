// The Rust peer rmcp 3.11.0: real nested, sampling and roots runs over stdio against their hand-written expectations
// (the driver is a cargo build in build/rmcp-target), the driver refusing a bad plan in one line,
// and a missing or stale build making the peer unavailable in one line, not a stack trace.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectationFor } from "../lab/check/expectations.js";
import { resultsOf } from "../lab/check/verify.js";
import { buildProblem } from "../lab/peers/cached-build.js";
import { RMCP_BUILD, RMCP_CLIENT } from "../lab/peers/rmcp/index.js";
import { readVersions } from "../lab/peers/versions.js";
import { runCase } from "../lab/session/pipeline.js";
import { findScenario } from "../scenarios/index.js";
import { needs } from "./support/needs.js";

/** a test that needs the rmcp build (npm ci builds it with cargo): a named skip, or under CI a failure, without it */
const rmcpTest = needs(RMCP_CLIENT);
const scratch = mkdtempSync(join(tmpdir(), "rmcp-peer-test-"));

rmcpTest("rmcp (serve loop: a task per inbound request): nested over stdio against ts1 passes expected/nested.sdk.rmcp.json", async () => {
  const report = await runCase(findScenario("nested")!, "sdk", { client: RMCP_CLIENT, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions());
  const run = report.runs[0]!;
  assert.equal(run.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`), []);
  assert.is(run.fault, undefined);
  const results = resultsOf(run.events) as Record<string, { value?: unknown }>;
  assert.is(results.first?.value, 21);
  assert.is(results.recovery?.value, 21);
  // the nested tools/list completed inside the callback, before it answered
  const kinds = run.events.map((e) => e.kind);
  assert.ok(kinds.indexOf("nested.ok") > kinds.indexOf("callback.entered"));
  assert.ok(kinds.indexOf("nested.ok") < kinds.indexOf("callback.left"));
  assert.not.ok(kinds.includes("nested.failed"));
});

test("nested against ts1, ts2 and py reads one hand-written rmcp expectation that cites rmcp's source", () => {
  for (const server of ["ts1", "ts2", "py"]) {
    const found = expectationFor("nested", "sdk", { client: "rmcp", server });
    assert.match(found?.file ?? "none", /expected\/nested\.sdk\.rmcp\.json$/);
    assert.match(found!.expectation.basis, "service.rs:1669");
  }
});

for (const [name, method] of [["sampling-nested", "sampling/createMessage"], ["roots-nested", "roots/list"]] as const) {
  rmcpTest(`rmcp answers ${method} from its own task: ${name} over stdio against ts1 passes expected/${name}.sdk.rmcp.json`, async () => {
    const report = await runCase(findScenario(name)!, "sdk", { client: RMCP_CLIENT, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions());
    const run = report.runs[0]!;
    assert.equal(run.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`), []);
    assert.is(run.fault, undefined);
    const client = run.events.filter((e) => e.side === "client").map((e) => e.kind);
    assert.equal(client.filter((k) => k.startsWith("callback.") || k.startsWith("nested.")), ["callback.entered", "nested.sent", "nested.ok", "callback.left"]);
    const left = run.events.find((e) => e.kind === "callback.left");
    assert.equal(left?.detail, { n: 1, call: "first", action: "accept" });
    assert.is(left?.method, method);
  });
}

rmcpTest("rmcp's five sampling callbacks overlap: sampling-fan-out over stdio against ts1 passes expected/sampling-fan-out.sdk.rmcp.json", async () => {
  const report = await runCase(findScenario("sampling-fan-out")!, "sdk", { client: RMCP_CLIENT, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions());
  const run = report.runs[0]!;
  assert.equal(run.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`), []);
  const kinds = run.events.filter((e) => e.kind.startsWith("callback.")).map((e) => e.kind);
  assert.ok(kinds.indexOf("callback.left") > 1, kinds.join(", "));
});

rmcpTest("a sampling request with no sampling planned: rmcp records callback.left with its error and answers an error", async () => {
  const scenario = { ...findScenario("sampling-nested")!, calls: [{ label: "first", tool: "summarize" }] };
  const expectation = expectationFor("sampling-nested", "sdk", { client: "rmcp", server: "ts1" })!.expectation;
  const report = await runCase(scenario, "sdk", { client: RMCP_CLIENT, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions(), expectation);
  const run = report.runs[0]!;
  assert.is(run.fault, undefined);
  const left = run.events.filter((e) => e.kind === "callback.left");
  assert.equal(left.map((e) => e.detail), [{ n: 1, call: "first", error: "ErrorData: no sampling/createMessage callback planned" }]);
  const answer = run.wire.find((f) => f.from === "client" && f.label?.method === "sampling/createMessage");
  assert.equal((answer?.message as { error?: unknown }).error, { code: -32600, message: "no sampling planned for this call" });
  assert.ok(run.events.some((e) => e.kind === "tool.result"));
});

test("sampling-nested, roots-nested and sampling-fan-out against ts1, ts2, py and py1 read hand-written rmcp expectations that cite rmcp's source", () => {
  for (const scenario of ["sampling-nested", "roots-nested", "sampling-fan-out"]) {
    for (const server of ["ts1", "ts2", "py", "py1"]) {
      const found = expectationFor(scenario, "sdk", { client: "rmcp", server });
      assert.match(found?.file ?? "none", new RegExp(`expected/${scenario}\\.sdk\\.rmcp\\.json$`));
      for (const cite of ["service.rs:1669", "handler/client.rs:22-26", "service/client.rs:874"]) assert.match(found!.expectation.basis, cite);
    }
  }
});

/** The driver given a bad plan file: one stderr line matching `said`, exit 2. */
const refusesPlan = (file: string, plan: unknown, said: RegExp) => {
  const path = join(scratch, file);
  writeFileSync(path, JSON.stringify(plan));
  const driver = RMCP_CLIENT.driver;
  if (driver.kind !== "process") return assert.unreachable("rmcp's driver is a process");
  const { command, args } = driver.command(path, join(scratch, "events.jsonl"));
  const r = spawnSync(command, [...args], { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "pipe"] });
  assert.is(r.status, 2);
  assert.is(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.match(r.stderr, said);
};

rmcpTest("the rmcp driver refuses a sampling plan out of bounds in one stderr line and exit 2", () => {
  const plan = { scenario: "x", capabilities: { sampling: {} }, listToolsFirst: false, calls: [{ label: "a", sampling: { delayMs: 20_000 } }], callTimeoutMs: 100 };
  refusesPlan("bad-sampling-plan.json", plan, /rmcp-client: bad plan .*calls\.0\.sampling\.delayMs: 20000 is outside 0\.\.10000/);
});

rmcpTest("the rmcp driver refuses a plan with an unknown field in one stderr line and exit 2", () => {
  const plan = { scenario: "x", capabilities: {}, listToolsFirst: false, calls: [{ label: "a" }], callTimeoutMs: 100, extra: 1 };
  refusesPlan("bad-plan.json", plan, /rmcp-client: bad plan .*unknown field `extra`/);
});

test("a missing rmcp build makes the peer unavailable in one line naming the build", () => {
  const absent = { ...RMCP_BUILD, name: "rmcp-absent", outputs: [join(scratch, "no-such-binary")] };
  const line = buildProblem(absent);
  assert.type(line, "string");
  assert.is(line!.split("\n").length, 1, line);
  assert.match(line!, /^rmcp-absent is not built \(.*missing\): run `npm run setup` on a machine with cargo$/);
});

// needs a current build to compare with
rmcpTest("a changed driver source makes the rmcp build stale, in one line", () => {
  const changed = { ...RMCP_BUILD, inputs: [...RMCP_BUILD.inputs, "package.json"] };
  assert.is(buildProblem(changed), "rmcp's build is older than its sources: run `npm run setup`");
});

test.run();
