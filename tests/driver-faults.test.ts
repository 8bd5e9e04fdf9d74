// A client driver runs as its own process, and the lab must survive it misbehaving: a driver that
// exits non-zero, hangs, prints a non-JSON-RPC line on stdout or writes a malformed events file
// ends its run failed, with a one-line reason and its evidence (stderr, exit status, the events
// file) in the case report that the CLI writes to run-output/. The drivers are a small real
// program (tests/fixtures/drivers/misbehaving-driver.mjs) registered as process client peers.
// The four runs share one start and run side by side, so the file costs about one hang.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadExpectation } from "../lab/check/expectations.js";
import { writeJsonAtomic } from "../lab/cli/output.js";
import { PROJECT_ROOT } from "../lab/paths.js";
import { registerClient } from "../lab/peers/registry.js";
import type { ClientPeer } from "../lab/plan/peer.js";
import { readVersions } from "../lab/peers/versions.js";
import { renderSummary } from "../lab/render/report.js";
import { runCase, type CaseReport, type RunRecord } from "../lab/session/pipeline.js";
import { EXIT_GRACE_MS } from "../lab/transports/child-process.js";
import { type ChildEvidence } from "../lab/plan/evidence.js";
import { type DriverEventsEvidence } from "../lab/plan/evidence.js";
import { findScenario } from "../scenarios/index.js";

const FIXTURE = join(PROJECT_ROOT, "tests", "fixtures", "drivers", "misbehaving-driver.mjs");
const FAULTS = ["exit-nonzero", "hang", "stdout-garbage", "bad-events"] as const;
type Fault = (typeof FAULTS)[number];
/** The hang is cut at this session bound (the lab's default is 30 s), then closed like any child. */
const BOUND_MS = 1_000;

const peer = (fault: Fault): ClientPeer => ({
  name: `fault-${fault}`,
  sdk: "a misbehaving driver program (tests only)",
  loops: ["sdk"],
  meaning: `a real process that misbehaves on purpose: ${fault}`,
  era: "2025-11-25",
  unavailable: () => undefined,
  driver: {
    kind: "process",
    command: (planFile, eventsFile) => ({ command: process.execPath, args: [FIXTURE, "--plan", planFile, "--events", eventsFile, "--fault", fault] }),
  },
});
const PEERS = Object.fromEntries(FAULTS.map((f) => [f, peer(f)])) as Record<Fault, ClientPeer>;
for (const p of Object.values(PEERS)) registerClient(p);

let shared: Promise<Record<Fault, CaseReport>> | undefined;
/** Each fault once, all at once, against the ts1 server over stdio (the runs are started on first use). */
function reports(): Promise<Record<Fault, CaseReport>> {
  shared ??= (async () => {
    // The ts1 expectation, handed in: whatever it says, these drivers cannot meet it.
    const expectation = loadExpectation("fixed-fixture", "sdk");
    const scenario = findScenario("fixed-fixture")!;
    const options = { transports: ["stdio"], repeat: 1, onDeadlock: "wait" as const };
    // only the hang is cut at BOUND_MS; the others end on their own, and a node start on a loaded
    // machine can take longer than that bound (the stdout-garbage run was once cut as a "hang")
    const bound = (f: Fault) => (f === "hang" ? { sessionBoundMs: BOUND_MS } : {});
    const done = await Promise.all(FAULTS.map((f) => runCase(scenario, "sdk", { ...options, ...bound(f), client: PEERS[f] }, readVersions(), expectation)));
    return Object.fromEntries(FAULTS.map((f, i) => [f, done[i]!])) as Record<Fault, CaseReport>;
  })();
  return shared;
}

const only = (report: CaseReport): RunRecord => {
  assert.is(report.runs.length, 1);
  return report.runs[0]!;
};
const relayOf = (run: RunRecord) => {
  if (run.transportEvidence.kind !== "relay") throw new Error(`not a client driver's run: ${run.transportEvidence.kind}`);
  return run.transportEvidence;
};
const driverOf = (run: RunRecord): ChildEvidence => relayOf(run).driver;
const eventsOf = (run: RunRecord): DriverEventsEvidence => relayOf(run).driverEvents;
const failedChecks = (run: RunRecord) => run.verdicts.filter((v) => !v.ok).flatMap((v) => v.details);

/** What the CLI writes for a case, read back: the evidence must survive the trip to run-output/. */
function writtenAndReadBack(report: CaseReport): CaseReport {
  const out = mkdtempSync(join(tmpdir(), "lab-faults-"));
  try {
    writeJsonAtomic(join(out, "case.json"), report);
    return JSON.parse(readFileSync(join(out, "case.json"), "utf8")) as CaseReport;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

test("every fault fails its run (the CLI exits 1 on it) with a one-line reason in the summary", async () => {
  const all = await reports();
  for (const fault of FAULTS) {
    const report = all[fault];
    const run = only(report);
    assert.is(report.ok, false, fault);
    assert.is(run.verdicts.find((v) => v.check === "session ran to the end")?.ok, false, fault);
    assert.type(run.fault, "string", fault);
    assert.not.match(run.fault!, "\n");
    assert.match(renderSummary([report], false), `fault: ${run.fault}`);
  }
});

test("exit-nonzero: exit code 3 and the driver's stderr kept, named in the reason", async () => {
  const run = only(writtenAndReadBack((await reports())["exit-nonzero"]));
  const driver = driverOf(run);
  assert.is(driver.exitCode, 3);
  assert.is(driver.forcedKill, false);
  assert.match(driver.stderr, "exiting with code 3 on purpose");
  assert.match(run.fault!, /exited with code 3; stderr: "misbehaving driver: exiting with code 3 on purpose"/);
  assert.ok(failedChecks(run).some((d) => d.includes("exit code 3, not 0")));
  // Its one valid event still reached the timeline; a good events file is not kept twice.
  assert.ok(run.events.some((e) => e.kind === "note" && e.detail?.misbehaving === "exit-nonzero"));
  assert.equal(eventsOf(run).problems, []);
  assert.is(eventsOf(run).text, undefined);
});

test("hang: cut at the session bound, killed by its own handle after the grace, stderr kept", async () => {
  const run = only(writtenAndReadBack((await reports()).hang));
  const driver = driverOf(run);
  assert.is(driver.exitedDuringSession, false, "the lab had to end it");
  assert.is(driver.forcedKill, true);
  assert.is(driver.signal, "SIGKILL");
  assert.ok(driver.closeToExitMs! >= EXIT_GRACE_MS, `closed to exit ${driver.closeToExitMs} ms`);
  assert.match(driver.stderr, "hanging on purpose");
  assert.ok(run.errors.some((e) => e.includes(`did not finish within its bound of ${BOUND_MS} ms`)), JSON.stringify(run.errors));
  assert.match(run.fault!, /hung: session fixed-fixture did not finish within its bound of 1000 ms; killed by its handle \(SIGKILL\)/);
  assert.ok(failedChecks(run).some((d) => d.includes("was killed")));
});

test("stdout-garbage: the line is named, kept in the evidence and noted on the timeline", async () => {
  const run = only(writtenAndReadBack((await reports())["stdout-garbage"]));
  const line = "hello from the driver, not JSON-RPC";
  assert.equal(driverOf(run).stdoutErrors, [line]);
  assert.is(driverOf(run).exitCode, 0);
  assert.match(run.fault!, `wrote a stdout line that is not one JSON-RPC message: "${line}"`);
  assert.ok(failedChecks(run).some((d) => d.includes(line)));
  assert.ok(run.events.some((e) => e.kind === "note" && e.detail?.stdoutError === line));
});

test("bad-events: each bad line named by number, the file's text kept, nothing of it merged", async () => {
  const run = only(writtenAndReadBack((await reports())["bad-events"]));
  const events = eventsOf(run);
  assert.is(events.problems.length, 2);
  assert.match(events.problems[0]!, /:2: not JSON: this line is not JSON/);
  assert.match(events.problems[1]!, /:3: not a driver event: .*t_ns/);
  assert.match(events.problems[1]!, /kind/);
  assert.match(events.text!, "callback.exploded");
  assert.match(run.fault!, /wrote a bad events file: \S+:2: not JSON: this line is not JSON \(and 1 more\)/);
  assert.not.ok(run.events.some((e) => e.kind === "note" && e.detail?.misbehaving), "a file with problems adds nothing");
  assert.ok(failedChecks(run).some((d) => d.includes(":3: not a driver event")));
});

test.run();
