// The Rust peer rmcp 3.11.0: a real nested run over stdio against its hand-written expectation
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

const missing = RMCP_CLIENT.unavailable();
const scratch = mkdtempSync(join(tmpdir(), "rmcp-peer-test-"));

test("the rmcp peer can run here (npm ci builds it with cargo; CI must not skip it)", () => {
  if (missing !== undefined && process.env.CI !== "true") {
    console.error(`rmcp-peer.test: rmcp not run here: ${missing}`);
    return;
  }
  assert.is(missing, undefined, missing);
});

if (missing === undefined) {
  test("rmcp (serve loop: a task per inbound request): nested over stdio against ts1 passes expected/nested.sdk.rmcp.json", async () => {
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

  test("the rmcp driver refuses a plan with an unknown field in one stderr line and exit 2", () => {
    const plan = join(scratch, "bad-plan.json");
    writeFileSync(plan, JSON.stringify({ scenario: "x", capabilities: {}, listToolsFirst: false, calls: [{ label: "a" }], callTimeoutMs: 100, extra: 1 }));
    const driver = RMCP_CLIENT.driver;
    if (driver.kind !== "process") return assert.unreachable("rmcp's driver is a process");
    const { command, args } = driver.command(plan, join(scratch, "events.jsonl"));
    const r = spawnSync(command, [...args], { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "pipe"] });
    assert.is(r.status, 2);
    assert.is(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, /rmcp-client: bad plan .*unknown field `extra`/);
  });
}

test("a missing rmcp build makes the peer unavailable in one line naming the build", () => {
  const absent = { ...RMCP_BUILD, name: "rmcp-absent", outputs: [join(scratch, "no-such-binary")] };
  const line = buildProblem(absent);
  assert.type(line, "string");
  assert.is(line!.split("\n").length, 1, line);
  assert.match(line!, /^rmcp-absent is not built \(.*missing\): run `npm run setup` on a machine with cargo$/);
});

test("a changed driver source makes the rmcp build stale, in one line", () => {
  if (missing !== undefined) return; // needs a current build to compare with
  const changed = { ...RMCP_BUILD, inputs: [...RMCP_BUILD.inputs, "package.json"] };
  assert.is(buildProblem(changed), "rmcp's build is older than its sources: run `npm run setup`");
});

test.run();
