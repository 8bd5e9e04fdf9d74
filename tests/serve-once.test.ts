// `serve --once`: the probe as a step of a client's own test suite. A concurrent client (ts1 as
// shipped) and the real serial one (py1, mcp 1.29.0) each run both probes against the built server
// with --once: it ends after the second probe's answer, exits 0 or 1 by the receive loop's verdict
// and writes the verdicts as JSON; a client that closes after one probe ends it too.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverChildOf } from "../lab/plan/evidence.js";
import type { ClientPeer, ServerPeer } from "../lab/plan/peer.js";
import { FORM_CAPABILITY, type Scenario } from "../lab/plan/scenario.js";
import { findClient } from "../lab/peers/registry.js";
import { CHILD_BUNDLE, ensureChildBuilt } from "../lab/peers/ts1/child-build.js";
import { runSession } from "../lab/session/session.js";
import { openProcessTransport } from "../lab/transports/process.js";
import { PROBE_CALLBACK_MS } from "./support/probe.js";

const dir = mkdtempSync(join(tmpdir(), "lab-serve-once-"));
const ACCEPT_READY = { action: "accept" as const, content: { ready: true } };
const probes = (fanOut: boolean): Scenario => ({
  name: fanOut ? "probe-once" : "probe-once-loop-only",
  summary: "the probes, as a client's test suite would call them against serve --once",
  capabilities: FORM_CAPABILITY,
  listToolsFirst: false,
  calls: [
    { label: "loop", tool: "probe_receive_loop", args: {}, callback: { delayMs: PROBE_CALLBACK_MS, answer: ACCEPT_READY } },
    ...(fanOut ? [{ label: "fan-out", tool: "probe_fan_out", args: { n: 3 }, callback: { delayMs: PROBE_CALLBACK_MS, answer: ACCEPT_READY } }] : []),
  ],
});
const serveOnce = (report: string): ServerPeer => ({
  name: "serve-once",
  sdk: "@modelcontextprotocol/sdk 1.32.2",
  meaning: "node build/child-server.cjs --once --report FILE",
  unavailable: () => undefined,
  child: { prepare: ensureChildBuilt, writesEvents: false, command: () => ({ command: process.execPath, args: [CHILD_BUNDLE, "--once", "--report", report] }) },
});

async function once(clientName: string, fanOut: boolean) {
  const client = findClient(clientName) as ClientPeer;
  assert.is(client.unavailable(), undefined, `${clientName} can run here`);
  const report = join(dir, `${clientName}-${fanOut}.json`);
  const run = await runSession(probes(fanOut), openProcessTransport, "stdio", { dispatch: "sdk", client, server: serveOnce(report) });
  return { run, exitCode: serverChildOf(run.transportEvidence)?.exitCode, report: JSON.parse(readFileSync(report, "utf8")) };
}

test("a concurrent client (ts1): both probes answered, exit 0, report says concurrent", async () => {
  const { run, exitCode, report } = await once("ts1", true);
  assert.equal(run.errors, []);
  assert.is(exitCode, 0);
  assert.equal([report.verdict, report.exitCode, report.ended], ["concurrent", 0, "both probes answered"]);
  assert.is(report.receiveLoop.verdict, "concurrent");
  assert.is(report.fanOut.probe, "fan_out");
});

test("the real serial client (py1): exit 1, report says serial; fan-out replies in request order, never all at once", async () => {
  const { exitCode, report } = await once("py1", true);
  assert.is(exitCode, 1);
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

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
