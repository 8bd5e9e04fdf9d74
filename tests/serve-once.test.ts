// `serve --once`: the probe as a step of a client's own test suite. A concurrent client (ts1 as
// shipped) and the real serial one (py1, mcp 1.29.0) each run both probes against the built server
// with --once: it ends after the second probe's answer, exits 0 or 1 by the receive loop's verdict
// and writes the verdicts as JSON; a client that closes after one probe ends it too.
import "./support/child-pids.js";
import { test } from "uvu";
import type { SessionEvidence } from "../lab/plan/session.js";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverChildOf } from "../lab/plan/evidence.js";
import type { ClientPeer, ServerPeer } from "../lab/plan/peer.js";
import { FORM_CAPABILITY, type Scenario } from "../lab/plan/scenario.js";
import { findClient } from "../lab/peers/registry.js";
import { CHILD_BUNDLE, ensureChildBuilt } from "../lab/peers/ts1/child-build.js";
import { overallVerdict } from "../lab/peers/ts1/probe-once.js";
import { runSession } from "../lab/session/session.js";
import { replyTo } from "../lab/check/verify.js";
import { isRequest } from "../lab/history/frames.js";
import { openProcessTransport } from "../lab/transports/process.js";
import { PROBE_CALLBACK_MS } from "./support/probe.js";
import { sharedRuns } from "./support/shared-runs.js";
import { missingOf, needs } from "./support/needs.js";

const dir = mkdtempSync(join(tmpdir(), "lab-serve-once-"));
const ACCEPT_READY = { action: "accept" as const, content: { ready: true } };
const probes = (fanOut: boolean, sampling = false): Scenario => ({
  name: sampling ? "probe-once-sampling" : fanOut ? "probe-once" : "probe-once-loop-only",
  summary: "the probes, as a client's test suite would call them against serve --once",
  capabilities: sampling ? { ...FORM_CAPABILITY, sampling: {} } : FORM_CAPABILITY,
  listToolsFirst: false,
  calls: [
    { label: "loop", tool: "probe_receive_loop", args: {}, callback: { delayMs: PROBE_CALLBACK_MS, answer: ACCEPT_READY } },
    ...(fanOut ? [{ label: "fan-out", tool: "probe_fan_out", args: { n: 3 }, callback: { delayMs: PROBE_CALLBACK_MS, answer: ACCEPT_READY } }] : []),
    ...(sampling ? [{ label: "sampling", tool: "probe_sampling", args: {}, sampling: { delayMs: PROBE_CALLBACK_MS } }] : []),
  ],
});
const serveOnce = (report: string): ServerPeer => ({
  name: "serve-once",
  sdk: "@modelcontextprotocol/sdk 1.32.2",
  meaning: "node build/child-server.cjs --once --report FILE",
  unavailable: () => undefined,
  child: { prepare: ensureChildBuilt, writesEvents: false, command: () => ({ command: process.execPath, args: [CHILD_BUNDLE, "--once", "--report", report] }) },
});

const sessions = sharedRuns<SessionEvidence>();
const reportFile = (clientName: string, fanOut: boolean, sampling: boolean) => join(dir, `${clientName}-${fanOut}-${sampling}.json`);
/** One session per (client, probes), made once; every one is started when this file's tests begin. */
function session(clientName: string, fanOut: boolean, sampling: boolean): Promise<SessionEvidence> {
  const report = reportFile(clientName, fanOut, sampling);
  return sessions.get(report, async () => {
    const client = findClient(clientName) as ClientPeer;
    const why = client.unavailable();
    if (why) throw new Error(`${clientName} cannot run here: ${why}`);
    return runSession(probes(fanOut, sampling), openProcessTransport, "stdio", { loop: "sdk", client, server: serveOnce(report) });
  });
}
const SESSIONS: [string, boolean, boolean][] = [["ts1", true, false], ["py1", true, false], ["ts1", false, false], ["ts1", true, true], ["py-inline", true, true]];
test.before(() => {
  for (const [client, fanOut, sampling] of SESSIONS) if (missingOf([findClient(client)!]) === undefined) void session(client, fanOut, sampling);
  return sessions.settled();
});

async function once(clientName: string, fanOut: boolean, sampling = false) {
  assert.is(findClient(clientName)!.unavailable(), undefined, `${clientName} can run here`);
  const run = await session(clientName, fanOut, sampling);
  return { run, exitCode: serverChildOf(run.transportEvidence)?.exitCode, report: JSON.parse(readFileSync(reportFile(clientName, fanOut, sampling), "utf8")) };
}

test("a concurrent client (ts1): both probes answered, exit 0, report says concurrent", async () => {
  const { run, exitCode, report } = await once("ts1", true);
  assert.equal(run.errors, []);
  assert.is(exitCode, 0);
  assert.equal([report.verdict, report.exitCode, report.ended], ["concurrent", 0, "the probes answered"]);
  assert.is(report.receiveLoop.verdict, "concurrent");
  assert.is(report.fanOut.probe, "fan_out");
});

needs(findClient("py1")!)("the real serial client (py1): exit 1, report says serial; fan-out replies in request order, never all at once", async () => {
  const { run, exitCode, report } = await once("py1", true);
  assert.is(exitCode, 1);
  // the last probe's result reaches the client before the server exits (it once left in a corked
  // write that exit dropped, and 1.29.0 waited out its own request limit)
  const calls = run.wire.filter((f) => f.from === "client" && isRequest(f.label) && f.label.method === "tools/call");
  assert.equal(calls.map((call) => replyTo(run.wire, call)?.from), ["server", "server"]);
  assert.equal([report.verdict, report.exitCode], ["serial", 1]);
  // the fan-out pattern is an inference from times; what is structural is the order, and that a
  // serial loop cannot answer all at once
  assert.is(report.fanOut.inRequestOrder, true);
  assert.is.not(report.fanOut.pattern, "all_at_once");
});

test("a client that closes after the loop probe ends the run with that verdict", async () => {
  const { exitCode, report } = await once("ts1", false);
  assert.is(exitCode, 0);
  assert.equal([report.verdict, report.ended, report.fanOut], ["concurrent", "the client ended the session", null]);
});

test("a client that declared sampling: the run waits for probe_sampling too, and the report carries it", async () => {
  const { run, exitCode, report } = await once("ts1", true, true);
  assert.equal(run.errors, []);
  assert.equal([exitCode, report.verdict, report.ended], [0, "concurrent", "the probes answered"]);
  assert.equal([report.sampling.probe, report.sampling.method, report.sampling.verdict], ["sampling", "sampling/createMessage", "concurrent"]);
});

needs(findClient("py-inline")!)("a loop serial for forms only (py-inline) is serial: a form probe's serial is not hidden by a concurrent sampling probe", async () => {
  const { exitCode, report } = await once("py-inline", true, true);
  assert.equal([exitCode, report.verdict, report.receiveLoop.verdict, report.sampling.verdict], [1, "serial", "serial", "concurrent"]);
});

test("the overall verdict: serial under either probe; a sampling probe that could not tell holds concurrent back; one not run changes nothing", () => {
  assert.is(overallVerdict("concurrent", "serial"), "serial");
  assert.is(overallVerdict("serial", "concurrent"), "serial");
  assert.is(overallVerdict("concurrent", "inconclusive"), "inconclusive");
  assert.is(overallVerdict("concurrent", "not_run"), "concurrent");
  assert.is(overallVerdict("concurrent", undefined), "concurrent");
  assert.is(overallVerdict("not_run", "concurrent"), "not_run");
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
