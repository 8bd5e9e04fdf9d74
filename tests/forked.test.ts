// A Python program forked from a warm interpreter (lab/transports/forked.ts, lab/peers/python/host.py)
// is the same run as a fresh `python script.py`: the same expectation holds, the same story facts,
// the same frames on the wire; only its evidence says where it came from. And a forked run is a
// process of its own: killed by its pid, it ends with that signal, and the host reports it.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { storyFacts } from "../lab/check/model-vs-real.js";
import { PY1_CLIENT } from "../lab/peers/py1/index.js";
import { PY_SERVER } from "../lab/peers/py/index.js";
import { readVersions } from "../lab/peers/versions.js";
import type { TransportEvidence } from "../lab/plan/evidence.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import { StdioChild, within } from "../lab/transports/child-process.js";
import { freshClient, freshServer, startChild } from "../lab/transports/forked.js";
import { findScenario } from "../scenarios/index.js";
import { needs } from "./support/needs.js";

function nested(fresh: boolean): Promise<RunRecord> {
  // py1 against the py server: both sides Python, so both are forked (or both fresh)
  const client = fresh ? freshClient(PY1_CLIENT) : PY1_CLIENT;
  const server = fresh ? freshServer(PY_SERVER) : PY_SERVER;
  const pairing = { client, server, transports: ["stdio" as const], repeat: 1, onDeadlock: "wait" as const };
  return runCase(findScenario("nested")!, "sdk", pairing, readVersions()).then((r) => r.runs[0]!);
}

const failures = (run: RunRecord) => run.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);
const frames = (run: RunRecord) => run.wire.map((f) => `${f.from}>${f.label.frameType}:${f.label.method ?? ""}`);

needs([PY1_CLIENT, PY_SERVER])("py1 -> py nested: a fresh run and a forked one pass the same expectation and tell the same story", async () => {
  const [fresh, forked] = await Promise.all([nested(true), nested(false)]);
  const second = await nested(false); // the host is warm now
  for (const run of [fresh, forked, second]) assert.equal(failures(run), []);
  assert.equal(storyFacts(forked), storyFacts(fresh));
  assert.equal(storyFacts(second), storyFacts(fresh));
  assert.equal(frames(forked), frames(fresh));
  const relay = (run: RunRecord) => run.transportEvidence as Extract<TransportEvidence, { kind: "relay" }>;
  // where each process came from is said, and only there
  assert.is(relay(fresh).driver.forkedFrom, undefined);
  assert.is(relay(fresh).server?.forkedFrom, undefined);
  assert.type(relay(forked).driver.forkedFrom, "number");
  assert.type(relay(forked).server?.forkedFrom, "number");
  assert.is(relay(second).driver.forkedFrom, relay(forked).driver.forkedFrom, "one host per python: reused");
  assert.is.not(relay(second).driver.pid, relay(forked).driver.pid, "a new process per run");
});

needs(PY_SERVER)("a forked run killed by its pid ends with that signal, reported by its host; its streams end", async () => {
  const command = PY_SERVER.child!.command({ eventsFile: undefined, faults: [] });
  let closed: { code: number | null; signal: string | null } | undefined;
  const child = new StdioChild(command, { line: () => {}, badLine: () => {}, closed: (code, signal) => (closed = { code, signal }) });
  await child.spawned();
  assert.type(child.evidence.forkedFrom, "number");
  assert.ok(child.process.kill("SIGTERM"));
  assert.ok(await within(child.waitExit(), 10_000), "the host reported the exit");
  const evidence = await child.close();
  assert.is(evidence.signal, "SIGTERM");
  assert.is(evidence.exitCode, null);
  assert.ok(evidence.stdoutDrained && evidence.stderrDrained);
  assert.equal(closed, { code: null, signal: "SIGTERM" });
});

// A run whose exit the lab reads before it has read its connections (on a busy machine the control
// line and the three sockets are read in whatever order they come): this host makes that order
// certain by replying "started" and "ended" first, then opening the run's three connections,
// writing a line on its stdout and closing them.
const QUICK_HOST = `
const net = require("node:net");
let buffer = "";
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  const end = buffer.indexOf("\\n");
  if (end < 0) return;
  const { id, socket } = JSON.parse(buffer.slice(0, end));
  buffer = buffer.slice(end + 1);
  process.stdout.write(JSON.stringify({ id, pid: process.pid, hosted: true }) + "\\n" + JSON.stringify({ id, exit: 0, signal: null }) + "\\n", () => {
    for (const role of ["stdin", "stdout", "stderr"]) {
      const s = net.connect(socket, () => s.end(id + " " + role + "\\n" + (role === "stdout" ? "a line\\n" : "")));
    }
  });
});`;

test("a run that ends before its connections are read still hands over all it wrote, and its streams end", async () => {
  const run = startChild({ command: process.execPath, args: [], host: { args: ["-e", QUICK_HOST], argv: ["quick"] } });
  let stdout = "";
  run.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  run.stderr.resume();
  const closed = new Promise<void>((resolve) => run.once("close", () => resolve()));
  assert.ok(await within(closed, 10_000), "stdout and stderr ended and the exit was reported");
  assert.is(stdout, "a line\n");
  assert.is(run.exitCode, 0);
});

test.run();
