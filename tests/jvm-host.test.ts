// The JVM drivers' session-host mode (`--host`, lab/transports/hosts.md; Host.java, Host.kt): one JVM
// runs many sessions, each on a thread of its own, and each is the same run as a fresh `java -jar`:
// two sessions started together in one host pass the same expectation as a fresh run and tell the same
// story on the same frames. A hosted session killed mid-call ends with SIGTERM, reported by its host,
// and writes no event after that; the same host's next session still passes.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storyFacts } from "../lab/check/model-vs-real.js";
import { JAVA_CLIENT, KOTLIN_CLIENT } from "../lab/peers/jvm/index.js";
import { TS1_SERVER } from "../lab/peers/ts1/index.js";
import { readVersions } from "../lab/peers/versions.js";
import { CALL_TIMEOUT_MS } from "../lab/plan/bounds.js";
import type { TransportEvidence } from "../lab/plan/evidence.js";
import { VALID_ANSWER } from "../lab/plan/form.js";
import type { ClientPeer } from "../lab/plan/peer.js";
import { reentrancyScenario, sessionPlan } from "../lab/plan/scenario.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import { StdioChild, within } from "../lab/transports/child-process.js";
import { freshClient } from "../lab/transports/forked.js";
import { findScenario } from "../scenarios/index.js";

const CLIENTS = [JAVA_CLIENT, KOTLIN_CLIENT];
const missing = JAVA_CLIENT.unavailable();
/** the kill's report, the killed session's streams: each a bound, not a pause */
const KILL_BOUND_MS = 10_000;

function nested(client: ClientPeer): Promise<RunRecord> {
  const pairing = { client, server: TS1_SERVER, transports: ["stdio" as const], repeat: 1, onDeadlock: "wait" as const };
  return runCase(findScenario("nested")!, "sdk", pairing, readVersions()).then((r) => r.runs[0]!);
}
const failures = (run: RunRecord) => run.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);
const frames = (run: RunRecord) => run.wire.map((f) => `${f.from}>${f.label.frameType}:${f.label.method ?? ""}`);
const clientKinds = (run: RunRecord) => run.events.filter((e) => e.side === "client").map((e) => e.kind);
const driverOf = (run: RunRecord) => (run.transportEvidence as Extract<TransportEvidence, { kind: "relay" }>).driver;

test("the JVM clients can run here (npm run setup built them)", () => {
  assert.is(missing, undefined, missing);
});

for (const client of CLIENTS) {
  test(`${client.name} -> ts1 nested: two sessions at once in one host pass the same expectation as a fresh run, with the same story, frames and driver events`, async () => {
    if (missing) return;
    const fresh = await nested(freshClient(client));
    const [a, b] = await Promise.all([nested(client), nested(client)]);
    for (const run of [fresh, a, b]) assert.equal(failures(run), []);
    for (const run of [a, b]) {
      assert.equal(storyFacts(run), storyFacts(fresh));
      assert.equal(frames(run), frames(fresh));
      assert.equal(clientKinds(run), clientKinds(fresh));
    }
    // where each session ran is said, and only there: one host, no process of its own
    assert.is(driverOf(fresh).hostedIn, undefined);
    assert.type(driverOf(a).hostedIn, "number");
    assert.is(driverOf(b).hostedIn, driverOf(a).hostedIn, "both sessions in one host");
    assert.is(driverOf(a).pid, driverOf(a).hostedIn, "a hosted session's pid is its host's");
    for (const run of [a, b]) assert.equal([driverOf(run).exitCode, driverOf(run).signal], [0, null]);
  });
}

/** A session whose form callback thinks for 10 s, between a real ts1 server and the hosted driver,
 *  killed once the server's elicitation/create has gone to the driver: in the middle of its call. */
async function killedMidCall(client: ClientPeer) {
  if (client.driver.kind !== "process") throw new Error(`${client.name} is not a process driver`);
  const dir = mkdtempSync(join(tmpdir(), "jvm-host-"));
  const [planFile, eventsFile] = [join(dir, "plan.json"), join(dir, "events.jsonl")];
  const slow = reentrancyScenario("hosted-kill", "a form callback that thinks for 10 s", { delayMs: 10_000, answer: { action: "accept", content: { ...VALID_ANSWER } } });
  writeFileSync(planFile, JSON.stringify(sessionPlan(slow, CALL_TIMEOUT_MS)));
  let elicited!: () => void;
  const elicitSent = new Promise<void>((resolve) => (elicited = resolve));
  let closed: { code: number | null; signal: string | null } | undefined;
  const send = (child: StdioChild, line: string) => void (child.process.stdin.writable && child.process.stdin.write(`${line}\n`));
  const ignore = () => undefined;
  const server: StdioChild = new StdioChild(TS1_SERVER.child!.command({ eventsFile: undefined, faults: [] }), {
    line: (line) => (send(driver, line), line.includes('"elicitation/create"') && elicited()),
    badLine: ignore,
    closed: ignore,
  });
  const driver: StdioChild = new StdioChild(client.driver.command(planFile, eventsFile), {
    line: (line) => send(server, line),
    badLine: ignore,
    closed: (code, signal) => (closed = { code, signal }),
  });
  try {
    await driver.spawned();
    assert.ok(await within(elicitSent, CALL_TIMEOUT_MS), "the server sent its form");
    assert.ok(driver.process.kill("SIGTERM"));
    assert.ok(await within(driver.waitExit(), KILL_BOUND_MS), "the host reported the end");
    const evidence = await driver.close();
    return { evidence, closed, kinds: () => readFileSync(eventsFile, "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { kind: string }).kind), dir };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  } finally {
    await server.close();
  }
}

for (const client of CLIENTS) {
  test(`${client.name}: a hosted session killed mid-call ends with SIGTERM and writes nothing after; the host's next session still passes`, async () => {
    if (missing) return;
    const { evidence, closed, kinds, dir } = await killedMidCall(client);
    assert.type(evidence.hostedIn, "number");
    assert.is(evidence.signal, "SIGTERM");
    assert.is(evidence.exitCode, null);
    assert.equal(closed, { code: null, signal: "SIGTERM" });
    assert.ok(evidence.stdoutDrained && evidence.stderrDrained, "its connections ended");
    try {
      const next = await nested(client);
      assert.equal(failures(next), []);
      assert.is(driverOf(next).hostedIn, evidence.hostedIn, "the same host ran the next session");
      // read once the next session is done, so the killed one's abandoned thread has had its chance:
      // a killed process writes nothing more (no callback.left, tool.result or sessionError note)
      const written = kinds();
      assert.ok(written.includes("call.started"), `the kill came mid-call: ${written.join(", ")}`);
      assert.ok(written.slice(written.indexOf("call.started") + 1).every((k) => k === "callback.entered"), `nothing after the kill: ${written.join(", ")}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test.run();
