// Drivers that stay up (lab/transports/hosts.md): the Go, Rust, Java and Kotlin drivers' --host mode
// (lab/peers/go/host.go, lab/peers/rmcp/src/host.rs, Host.java, Host.kt). A hosted session is the same
// run as a fresh process: two sessions of one host at once pass the fresh run's expectation and tell
// its story on the same frames, with the same driver events. And a hosted session is its own: killed
// mid-call (its callback still thinking) it ends with SIGTERM, reported by its host, and writes nothing
// after; another session of that host completes while it sits in its callback, and the host's next
// session passes. The lab's own ts1 stdio server is hosted too (lab/peers/ts1/child-host.ts): its
// sessions tell the fresh child's story with the same server-side record, and one killed writes no
// record and leaves its host serving. Each test fails under LAB_FRESH=1 (no hostedIn).
import "./support/child-pids.js";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { storyFacts } from "../lab/check/model-vs-real.js";
import { GO_CLIENT } from "../lab/peers/go/index.js";
import { JAVA_CLIENT, KOTLIN_CLIENT } from "../lab/peers/jvm/index.js";
import { RMCP_CLIENT } from "../lab/peers/rmcp/index.js";
import { TS1_CLIENT, TS1_SERVER } from "../lab/peers/ts1/index.js";
import { readVersions } from "../lab/peers/versions.js";
import { CALL_TIMEOUT_MS } from "../lab/plan/bounds.js";
import { serverChildOf, type ChildEvidence, type TransportEvidence } from "../lab/plan/evidence.js";
import type { ClientPeer, ServerPeer } from "../lab/plan/peer.js";
import { sessionPlan } from "../lab/plan/scenario.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import { StdioChild, within } from "../lab/transports/child-process.js";
import { freshClient, freshServer } from "../lab/transports/forked.js";
import { findScenario } from "../scenarios/index.js";
import { needs } from "./support/needs.js";

const PEERS = [GO_CLIENT, RMCP_CLIENT, JAVA_CLIENT, KOTLIN_CLIENT];
/** the server's form, the kill's report: each a bound, not a pause */
const BOUND_MS = 20_000;

const nested = (client: ClientPeer): Promise<RunRecord> =>
  runCase(findScenario("nested")!, "sdk", { client, server: TS1_SERVER, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((r) => r.runs[0]!);
const failures = (run: RunRecord) => run.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);
const frames = (run: RunRecord) => run.wire.map((f) => `${f.from}>${f.label.frameType}:${f.label.method ?? ""}`);
const clientKinds = (run: RunRecord) => run.events.filter((e) => e.side === "client").map((e) => e.kind);
const driverOf = (run: RunRecord) => (run.transportEvidence as Extract<TransportEvidence, { kind: "relay" }>).driver;
const kinds = (file: string) =>
  readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => (JSON.parse(line) as { kind: string }).kind);

/** SIGTERM to a hosted session by its handle: its host reports that signal, its connections end. */
async function killedHosted(child: StdioChild, closed: () => { code: number | null; signal: string | null } | undefined): Promise<ChildEvidence> {
  assert.ok(child.process.kill("SIGTERM"));
  assert.ok(await within(child.waitExit(), BOUND_MS), "the host reported the session's end");
  const evidence = await child.close();
  assert.equal([evidence.exitCode, evidence.signal], [null, "SIGTERM"]);
  assert.equal(closed(), { code: null, signal: "SIGTERM" });
  assert.ok(evidence.stdoutDrained && evidence.stderrDrained, "its connections ended");
  assert.type(evidence.hostedIn, "number");
  return evidence;
}

for (const peer of PEERS) {
  needs(peer)(`${peer.name} -> ts1 nested: two sessions of one host at once pass the fresh run's expectation and tell its story`, async () => {
    const [fresh, first, second] = await Promise.all([nested(freshClient(peer)), nested(peer), nested(peer)]);
    for (const run of [fresh, first, second]) assert.equal(failures(run), [], `${peer.name}: ${failures(run).join(" | ")}`);
    for (const run of [first, second]) {
      assert.equal(storyFacts(run), storyFacts(fresh));
      assert.equal(frames(run), frames(fresh));
      assert.equal(clientKinds(run), clientKinds(fresh));
    }
    // where each session ran is said, and only there: one host for both, none for the fresh run
    assert.is(driverOf(fresh).hostedIn, undefined);
    assert.type(driverOf(first).hostedIn, "number");
    assert.is(driverOf(second).hostedIn, driverOf(first).hostedIn, "one host per driver: both sessions in it");
    assert.is(driverOf(first).pid, driverOf(first).hostedIn, "a hosted session's pid is its host's");
    for (const run of [first, second]) assert.equal([driverOf(run).exitCode, driverOf(run).signal], [0, null]);
  });

  needs(peer)(`${peer.name}: a hosted session killed mid-call ends with SIGTERM while another session of its host completes, and the next one passes`, async () => {
    assert.ok(peer.driver.kind === "process" && TS1_SERVER.child);
    await TS1_SERVER.child.prepare?.();
    const dir = mkdtempSync(join(tmpdir(), "hosts-"));
    let server: StdioChild | undefined;
    try {
      // nested with the first call's callback thinking 8 s: the session sits inside a tools/call
      const plan = sessionPlan(findScenario("nested")!, CALL_TIMEOUT_MS);
      plan.calls[0]!.callback = { ...plan.calls[0]!.callback!, delayMs: 8_000 };
      const [planFile, eventsFile] = [join(dir, "plan.json"), join(dir, "events.jsonl")];
      writeFileSync(planFile, JSON.stringify(plan));
      // the driver's session and a ts1 server child, each line relayed to the other
      let asked!: () => void;
      const formAsked = new Promise<void>((resolve) => (asked = resolve));
      let closed: { code: number | null; signal: string | null } | undefined;
      const send = (child: StdioChild, line: string) => void (child.process.stdin.writable && child.process.stdin.write(`${line}\n`));
      const quiet = { badLine: () => {}, closed: () => {} };
      server = new StdioChild(TS1_SERVER.child.command({ eventsFile: undefined, faults: [] }), {
        ...quiet,
        line: (line) => (line.includes('"elicitation/create"') && asked(), send(driver, line)),
      });
      const driver: StdioChild = new StdioChild(peer.driver.command(planFile, eventsFile), {
        ...quiet,
        line: (line) => send(server!, line),
        closed: (code, signal) => (closed = { code, signal }),
      });
      await Promise.all([driver.spawned(), server.spawned()]);
      assert.ok(await within(formAsked, BOUND_MS), "the server asked for the form");

      // while it thinks, another session of the same host runs from start to end
      const meanwhile = await nested(peer);
      assert.equal(failures(meanwhile), []);
      assert.is(driverOf(meanwhile).hostedIn, driver.evidence.hostedIn);
      assert.ok(driver.running, "the first session is still in its callback");

      const evidence = await killedHosted(driver, () => closed);

      const next = await nested(peer);
      assert.equal(failures(next), []);
      assert.is(driverOf(next).hostedIn, evidence.hostedIn, "the same host, still up");
      // read once the next session is done, so the killed one's abandoned work has had its chance:
      // killed, it wrote nothing more (no callback.left, tool.result or sessionError note; Kotlin's
      // frame.dispatched, one per frame its SDK read, says nothing of the session's end)
      assert.equal(kinds(eventsFile).filter((k) => k !== "frame.dispatched").slice(-2), ["call.started", "callback.entered"]);
    } finally {
      await server?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

const ts1Nested = (server: ServerPeer): Promise<RunRecord> =>
  runCase(findScenario("nested")!, "sdk", { client: TS1_CLIENT, server, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((r) => r.runs[0]!);
const serverKinds = (run: RunRecord) => {
  const evidence = run.transportEvidence as Extract<TransportEvidence, { kind: "stdio" }>;
  // as a multiset: a frame's arrival and an earlier one's dispatch may come in either order
  return (evidence.serverRecord?.events ?? []).map((e) => e.kind).sort();
};

test("ts1 server: two sessions of its host at once pass the fresh child's expectation, with the same record of its own", async () => {
  const [fresh, first, second] = await Promise.all([ts1Nested(freshServer(TS1_SERVER)), ts1Nested(TS1_SERVER), ts1Nested(TS1_SERVER)]);
  for (const run of [fresh, first, second]) assert.equal(failures(run), []);
  const child = (run: RunRecord) => serverChildOf(run.transportEvidence)!;
  for (const run of [first, second]) {
    assert.equal(storyFacts(run), storyFacts(fresh));
    assert.equal(frames(run), frames(fresh));
    assert.equal(serverKinds(run), serverKinds(fresh), "the server's own events, written on stdin EOF as the child writes them");
    assert.equal([child(run).exitCode, child(run).signal, child(run).exitedDuringSession], [0, null, false]);
  }
  assert.ok(serverKinds(fresh).length > 0);
  assert.is(child(fresh).hostedIn, undefined);
  assert.type(child(first).hostedIn, "number");
  assert.is(child(second).hostedIn, child(first).hostedIn, "one host for both");
});

test("ts1 server: a hosted session killed mid-session ends with SIGTERM and writes no record; its host serves the next", async () => {
  await TS1_SERVER.child!.prepare?.();
  const dir = mkdtempSync(join(tmpdir(), "hosts-"));
  try {
    const eventsFile = join(dir, "server-events.json");
    let closed: { code: number | null; signal: string | null } | undefined;
    let answered!: () => void;
    const initialized = new Promise<void>((resolve) => (answered = resolve));
    const server = new StdioChild(TS1_SERVER.child!.command({ eventsFile, faults: [] }), {
      badLine: () => {},
      line: (line) => line.includes('"serverInfo"') && answered(),
      closed: (code, signal) => (closed = { code, signal }),
    });
    await server.spawned();
    server.process.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "hosts.test", version: "1" } } })}\n`);
    assert.ok(await within(initialized, BOUND_MS), "the session answered initialize");
    const evidence = await killedHosted(server, () => closed);
    const next = await ts1Nested(TS1_SERVER);
    assert.equal(failures(next), []);
    assert.is(serverChildOf(next.transportEvidence)!.hostedIn, evidence.hostedIn, "the same host, still up");
    assert.not.ok(existsSync(eventsFile), "killed, it wrote no record");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
