// The same scenarios over a real stdio child: same results and same client-side story as in
// memory, and faults that end quickly with their evidence kept (no child left: zz-no-child-left).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { withBound } from "../lab/plan/bounds.js";
import { childBuildStaleness, ensureChildBuilt } from "../lab/peers/ts1/child-build.js";
import { DIE_EXIT_CODE, DIE_STDERR_LINE, GARBAGE_LINE } from "../lab/peers/ts1/child-faults.js";
import { EXIT_GRACE_MS } from "../lab/transports/child-process.js";
import { type ChildEvidence } from "../lab/plan/evidence.js";
import { compareParity, PARITY_RULES, SERVER_SIDE_ALLOWANCES } from "../lab/check/parity.js";
import { loadExpectation } from "../lab/check/expectations.js";
import { LOOP_MODELS, type LoopModel } from "../lab/history/receive-loop.js";
import { runSession } from "../lab/session/session.js";
import { type SessionEvidence } from "../lab/plan/session.js";
import { lifecycleProblems, openStdioTransport, stdioTransport } from "../lab/transports/stdio.js";
import { type ServerRecord } from "../lab/plan/evidence.js";
import { resultsOf } from "../lab/check/verify.js";
import { SCENARIOS } from "../scenarios/index.js";
import type { Scenario } from "../lab/plan/scenario.js";
import { memoryRun } from "./support/runs.js";
import { sharedRuns } from "./support/shared-runs.js";
import fixedFixture from "../scenarios/fixed-fixture.js";
import nested from "../scenarios/nested.js";
import prefetch from "../scenarios/prefetch.js";


/** The reentrancy scenarios whose stdio parity this file guards. */
const PARITY_SCENARIOS = [nested, prefetch, fixedFixture];

const SESSION_TEST_BOUND_MS = 20_000;
/** The fault test's grace: short, so the test does not wait the real 5 s for a kill it expects. */
const TEST_GRACE_MS = 1_000;

/** npm test: the parity scenarios over stdio; LAB_TESTS=full (.ci/run) every scenario, as `all` does. */
const STDIO_SCENARIOS = process.env.LAB_TESTS === "full" ? SCENARIOS : PARITY_SCENARIOS;

/** One stdio session per scenario and model for the whole file, all started when its tests begin,
 *  two at a time (one child per core): nothing they are checked for depends on what runs beside them. */
const stdioRuns = sharedRuns<SessionEvidence>(2);
const stdioRun = (scenario: Scenario, loop: LoopModel): Promise<SessionEvidence> =>
  stdioRuns.get(`${scenario.name}.${loop}`, () => withBound(runSession(scenario, openStdioTransport, "stdio", { loop }), SESSION_TEST_BOUND_MS, "stdio session"));
test.before(() => {
  for (const scenario of STDIO_SCENARIOS) for (const loop of LOOP_MODELS) void stdioRun(scenario, loop);
  return stdioRuns.settled();
});

/** A stdio run's server child, with the record it kept of its own side. */
const child = (evidence: SessionEvidence): ChildEvidence & { serverRecord: ServerRecord | null } => {
  const e = evidence.transportEvidence;
  if (e.kind !== "stdio") throw new Error(`not a stdio run with a server child: ${e.kind}`);
  return { ...e.server, serverRecord: e.serverRecord ?? null };
};

/** The child's own record of the server side tells the same story as memory's server side. */
function assertServerParity(memory: SessionEvidence, stdio: SessionEvidence): void {
  const side = child(stdio).serverRecord;
  assert.ok(side, "the child wrote its own events");
  assert.ok(side.events.some((e) => e.side === "server" && e.kind === "frame.sent"), "the child recorded what it sent");
  const parity = compareParity(memory.events, side.events, SERVER_SIDE_ALLOWANCES, "server");
  assert.ok(parity.ok, `server-side parity broke at ${JSON.stringify(parity.firstDifference)}`);
}

test("parity rejects a changed story on either side (corrupted copies of real evidence)", async () => {
  const memory = await memoryRun("nested", "serial");
  const stdio = await stdioRun(nested, "serial");
  const side = child(stdio).serverRecord!;
  assert.ok(compareParity(memory.events, side.events, SERVER_SIDE_ALLOWANCES, "server").ok);
  // the server's reply to the nested tools/list, dropped from the child's record
  const withoutReply = side.events.filter((e) => !(e.kind === "frame.sent" && e.method === "tools/list" && e.id === 3));
  assert.not.ok(compareParity(memory.events, withoutReply, SERVER_SIDE_ALLOWANCES, "server").ok);
  // the client's timeout and its late reply swapped
  const events = structuredClone(stdio.events);
  const failed = events.findIndex((e) => e.kind === "nested.failed");
  const late = events.findIndex((e) => e.kind === "reply.late");
  [events[failed], events[late]] = [events[late]!, events[failed]!];
  assert.not.ok(compareParity(memory.events, events).ok);
  // an action changed in the callback's answer
  const answered = structuredClone(stdio.events);
  answered.find((e) => e.kind === "callback.left")!.detail!.action = "accept";
  assert.not.ok(compareParity(memory.events, answered).ok);
});

test("the compiled child is up to date before any spawn", async () => {
  await withBound(ensureChildBuilt(), 130_000, "building the child");
  assert.is(await childBuildStaleness(), undefined);
});

for (const scenario of PARITY_SCENARIOS) {
  for (const loop of LOOP_MODELS) {
    test(`${scenario.name} / ${loop}: stdio gives the memory results and the same client story`, async () => {
      const memory = await memoryRun(scenario.name, loop);
      const stdio = await stdioRun(scenario, loop);
      assert.equal(stdio.errors, []);
      assert.equal(lifecycleProblems(stdio.transportEvidence), []);
      const results = resultsOf(stdio.events);
      assert.ok(results.first !== undefined && results.recovery !== undefined, "both calls produced a tool.result");
      assert.equal(results, resultsOf(memory.events));
      const parity = compareParity(memory.events, stdio.events);
      assert.ok(parity.ok, `parity broke at ${JSON.stringify(parity.firstDifference)}`);
      assertServerParity(memory, stdio);
      assert.is(child(stdio).exitCode, 0);
      assert.is(child(stdio).forcedKill, false);
    });
  }
}

// Scenarios with several frames in flight at once: how many stdout lines the parent reads per
// chunk is up to the OS, so arrivals may land between client steps; order must still match.
// Each is compared with the allowances its expectation names, and no others. Under LAB_TESTS=full
// only: npm test has `all`'s parity of them in .ci/run, and the parity scenarios above.
for (const scenario of STDIO_SCENARIOS.filter((s) => !PARITY_SCENARIOS.includes(s))) {
  for (const loop of LOOP_MODELS) {
    const allowed = (loadExpectation(scenario.name, loop).parityAllows ?? []).flatMap((a) => PARITY_RULES[a.rule]);
    test(`${scenario.name} / ${loop}: stdio matches memory with the allowances its expectation names`, async () => {
      const memory = await memoryRun(scenario.name, loop);
      const stdio = await stdioRun(scenario, loop);
      assert.equal(stdio.errors, []);
      assert.equal(lifecycleProblems(stdio.transportEvidence), []);
      assert.equal(resultsOf(stdio.events), resultsOf(memory.events));
      const parity = compareParity(memory.events, stdio.events, allowed);
      assert.ok(parity.ok, `parity broke at ${JSON.stringify(parity.firstDifference)}`);
      assertServerParity(memory, stdio);
    });
  }
}

test("stdout-garbage: the run fails with a stdout error naming the line", async () => {
  const run = await withBound(
    runSession(nested, stdioTransport({ faults: ["stdout-garbage"] }), "stdio", { loop: "sdk" }),
    SESSION_TEST_BOUND_MS,
    "stdout-garbage session",
  );
  assert.equal(child(run).stdoutErrors, [GARBAGE_LINE]);
  const problems = lifecycleProblems(run.transportEvidence);
  assert.ok(problems.some((p) => p.includes(GARBAGE_LINE)), `problems name the line: ${JSON.stringify(problems)}`);
  const note = run.events.find((e) => e.kind === "note" && e.side === "client" && e.detail?.stdoutError !== undefined);
  assert.is(note?.detail?.stdoutError, GARBAGE_LINE);
});

test("a partial last line at EOF is a stdout error, and the child's early exit ends the session", async () => {
  const partial = '{"jsonrpc":"2.0",';
  const run = await withBound(
    runSession(nested, stdioTransport({ command: { command: process.execPath, args: ["-e", `process.stdout.write(${JSON.stringify(partial)})`] } }), "stdio", { loop: "sdk" }),
    SESSION_TEST_BOUND_MS,
    "partial-line session",
  );
  assert.equal(child(run).stdoutErrors, [partial]);
  assert.is(child(run).exitedDuringSession, true);
  assert.ok(run.errors.some((e) => e.includes("Connection closed")), `session errors: ${JSON.stringify(run.errors)}`);
});

test("die-mid-call: the session ends with the child, exit code 3 and stderr kept, the call errors", async () => {
  const run = await withBound(
    runSession(nested, stdioTransport({ faults: ["die-mid-call"] }), "stdio", { loop: "sdk" }),
    SESSION_TEST_BOUND_MS,
    "die-mid-call session",
  );
  // Ended by the child's death, not by a wait running out: the call failed with "Connection
  // closed" (-32000, below), not its own timeout (-32001), and no bound of the session fired.
  assert.not.ok(run.errors.some((e) => e.includes("within its bound")), JSON.stringify(run.errors));
  const evidence = child(run);
  assert.is(evidence.exitCode, DIE_EXIT_CODE);
  assert.is(evidence.exitedDuringSession, true);
  assert.ok(evidence.stderr.includes(DIE_STDERR_LINE), `stderr tail: ${evidence.stderr}`);
  assert.ok(lifecycleProblems(run.transportEvidence).some((p) => p.includes(`exit code ${DIE_EXIT_CODE}`)));
  const first = run.events.find((e) => e.kind === "tool.result" && e.detail?.call === "first");
  const error = first?.detail?.error as { code: number | null } | undefined;
  assert.is(error?.code, -32000, "ConnectionClosed from the SDK");
});

test("ignore-stdin-close: killed after the grace, and that is a failure", async () => {
  const run = await withBound(
    runSession(nested, stdioTransport({ faults: ["ignore-stdin-close"], exitGraceMs: TEST_GRACE_MS }), "stdio", { loop: "sdk" }),
    SESSION_TEST_BOUND_MS,
    "ignore-stdin-close session",
  );
  const evidence = child(run);
  // Killed by the lab because the grace ran out (forcedKill is set only then), with SIGKILL; the
  // real grace is EXIT_GRACE_MS, this test's is shorter. Not "killed within N ms": a busy
  // machine delays the kill; the timer is never much early, so half the grace is a safe floor.
  assert.ok(TEST_GRACE_MS < EXIT_GRACE_MS);
  assert.is(evidence.forcedKill, true);
  assert.is(evidence.signal, "SIGKILL");
  const waited = evidence.closeToExitMs ?? -1;
  assert.ok(waited >= TEST_GRACE_MS / 2, `killed ${waited} ms after stdin closed, before the grace of ${TEST_GRACE_MS} ms`);
  assert.ok(lifecycleProblems(run.transportEvidence).some((p) => p.includes("killed")));
  // The calls themselves were fine: the failure is the lifecycle alone.
  assert.equal(resultsOf(run.events).recovery, { status: "calculated", computed: true, value: 21 });
});

test.run();
