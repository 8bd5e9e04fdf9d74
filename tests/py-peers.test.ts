// The real Python SDK 2.3.0 peers, in one small shared set of runs over stdio: nested with the
// `py` client (no deadlock) and the `py-inline` client (the deadlock, in real SDK code, and its
// recovery) against the ts1 server, each against its hand-written expectation; the serial model
// checked against py-inline, and that check shown to reject corrupted real evidence; two
// contract cases against the `py` server, where every value of their expectations matters; and
// the py client answering units 3.0 to both servers (the relay must forward bytes, not re-parse).
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ContractExpectation, contractDir, contractExpectationPath, loadContractExpectation, verifyContract } from "../lab/check/contract.js";
import { runContractCase } from "../lab/session/contract.js";
import { appliesTo, ExpectationError, parseExpectation } from "../lab/check/expectations.js";
import { compareModelWithReal, storyFacts, type StoryFacts } from "../lab/check/model-vs-real.js";
import { replyTo, resultsOf } from "../lab/check/verify.js";
import { isRequest, paramsOf, resultOf } from "../lab/history/frames.js";
import { PY_CLIENT, PY_INLINE_CLIENT, PY_SERVER } from "../lab/peers/py/index.js";
import type { ClientPeer } from "../lab/plan/peer.js";
import { readVersions } from "../lab/peers/versions.js";
import { runCase, type CaseReport, type RunRecord } from "../lab/session/pipeline.js";
import { runSession } from "../lab/session/session.js";
import { FORM_CAPABILITY } from "../lab/plan/scenario.js";
import { TS1_SERVER } from "../lab/peers/ts1/index.js";
import { TRANSPORTS } from "../lab/transports/index.js";
import { StdioChild } from "../lab/transports/child-process.js";
import { CONTRACT_CASES, findContractCase } from "../scenarios/contract/index.js";
import { findScenario } from "../scenarios/index.js";
import { survivingChanges, type Json } from "../lab/check/mutations.js";
import { slots } from "../lab/session/slots.js";
import { copy, memoryRun } from "./support/runs.js";
import { needs } from "./support/needs.js";

/** a test that needs the Python peers (.venv): without it, a named skip (under CI=true, a failure) */
const pyTest = needs([PY_CLIENT, PY_SERVER]);
const CONTRACT_RUNS = ["accept_missing_field", "accept_no_content"];
const cases = new Map<string, Promise<CaseReport>>();
/** Two Python runs at a time. */
const inSlot = slots(2);
const once = (key: string, make: () => Promise<CaseReport>) => cases.get(key) ?? cases.set(key, inSlot(make)).get(key)!;
const nested = (client: ClientPeer) =>
  once(`nested.${client.name}`, () => runCase(findScenario("nested")!, "sdk", { client, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()));
const contractCase = (name: string) =>
  once(`contract.${name}`, () => runContractCase(findContractCase(name)!, loadContractExpectation(name, contractDir(undefined, "py"), "py"), { server: PY_SERVER, transports: ["stdio"], repeat: 1 }, readVersions()));
const only = async (report: Promise<CaseReport>): Promise<RunRecord> => (await report).runs[0]!;
const failures = (run: RunRecord) => run.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);

pyTest("the Python peers can run here (npm ci sets up .venv; CI must not skip them)", () => {
  // the shared runs start now, two at a time; each test below awaits the ones it reads
  // (a failure is reported by the test that reads the run, not as an unhandled rejection here)
  for (const started of [nested(PY_CLIENT), nested(PY_INLINE_CLIENT), ...CONTRACT_RUNS.map(contractCase)]) started.catch(() => undefined);
});

pyTest("py (ClientSession as shipped): nested does not deadlock; passes expected/nested.sdk.py.json", async () => {
  const run = await only(nested(PY_CLIENT));
  assert.equal(failures(run), []);
  assert.is(run.fault, undefined);
  const results = resultsOf(run.events) as Record<string, { value?: unknown }>;
  assert.is(results.first?.value, 21);
  assert.ok(run.events.some((e) => e.kind === "nested.ok"));
  assert.not.ok(run.events.some((e) => e.kind === "nested.failed"));
});

pyTest("py-inline (inline elicitation/create): the real deadlock and recovery; passes expected/nested.sdk.py-inline.json", async () => {
  const run = await only(nested(PY_INLINE_CLIENT));
  assert.equal(failures(run), []);
  assert.is(run.fault, undefined);
  const failed = run.events.find((e) => e.kind === "nested.failed");
  assert.is(failed?.detail?.code, -32001);
  const results = resultsOf(run.events) as Record<string, { status?: unknown; value?: unknown }>;
  assert.is(results.first?.status, "cancelled");
  assert.is(results.recovery?.value, 21);
});

/** The model (ts1 under serial, in memory: the run other test files share) and py-inline's real run. */
async function modelAndReal(): Promise<{ model: StoryFacts; real: RunRecord }> {
  return { model: storyFacts(await memoryRun("nested", "serial")), real: await only(nested(PY_INLINE_CLIENT)) };
}

pyTest("model vs real: the serial model tells py-inline's story; the one difference is allowed", async () => {
  const { model, real } = await modelAndReal();
  const verdict = compareModelWithReal(model, storyFacts(real));
  assert.ok(verdict.ok, JSON.stringify(verdict.facts, null, 2));
  assert.equal(verdict.facts.filter((f) => !f.same).map((f) => f.fact), ["lateReply"]);
});

pyTest("model vs real rejects corrupted real evidence, naming the fact", async () => {
  const { model, real } = await modelAndReal();
  const rejects = (corrupt: (run: RunRecord) => void): string[] => {
    const bad = copy(real);
    corrupt(bad);
    const verdict = compareModelWithReal(model, storyFacts(bad));
    assert.not.ok(verdict.ok);
    return verdict.facts.filter((f) => !f.same && !f.allowed).map((f) => f.fact);
  };
  const nestedReply = (run: RunRecord) => {
    const elicit = run.wire.find((f) => f.from === "server" && isRequest(f.label) && f.label.method === "elicitation/create")!;
    const request = run.wire.find((f) => f.index > elicit.index && f.from === "client" && f.label.method === "tools/list")!;
    return replyTo(run.wire, request)!;
  };
  // the nested reply moved after the failure: no longer "arrived, yet the callback gave up"
  assert.equal(rejects((run) => {
    const failedAt = run.events.find((e) => e.kind === "nested.failed")!.t;
    const reply = nestedReply(run);
    run.wire.splice(run.wire.indexOf(reply), 1);
    run.wire.push({ ...reply, t: failedAt + 1 });
  }), ["replyBeforeLimit"]);
  // the first result changed to the 21 a concurrent loop would give
  assert.equal(rejects((run) => {
    run.events.find((e) => e.kind === "tool.result" && e.detail?.call === "first")!.detail!.result = { status: "calculated", computed: true, value: 21 };
  }), ["first"]);
  // Python 1.29.0's 408 instead of 2.3.0's -32001
  assert.equal(rejects((run) => void (run.events.find((e) => e.kind === "nested.failed")!.detail!.code = 408)), ["errorCode"]);
  // the courtesy cancel dropped from the wire
  // (the client's frames in order then differ too: py1's own story, allowed only against py1)
  assert.equal(rejects((run) => void (run.wire = run.wire.filter((f) => f.label.method !== "notifications/cancelled"))), ["cancelNotice", "clientFrames"]);
});

test("contract on the py server: every case has exactly one expected file there, each naming server py", () => {
  const dir = contractDir(undefined, "py");
  const files = readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => f.replace(/\.json$/, ""));
  assert.equal([...files].sort(), CONTRACT_CASES.map((c) => c.name).sort());
  for (const name of files) assert.equal(loadContractExpectation(name, dir, "py").servers, ["py"]);
  const ts1File = loadContractExpectation("accept_valid");
  assert.is(ts1File.servers, undefined, "ts1's files speak for ts1 only");
  try {
    loadContractExpectation("accept_valid", contractDir(undefined), "py");
    assert.unreachable("a ts1 file was taken for the py server");
  } catch (error) {
    assert.instance(error, ExpectationError);
  }
});

for (const name of CONTRACT_RUNS) {
  pyTest(`contract ${name} against the py server (ts1 client, stdio): passes, and changing any expected value fails it`, async () => {
    const run = await only(contractCase(name));
    assert.equal(failures(run), []);
    const file = contractExpectationPath(name, contractDir(undefined, "py"));
    const doc = JSON.parse(readFileSync(file, "utf8")) as Json;
    const { checked, survivors } = survivingChanges(doc, (changed) => {
      try {
        const expectation = parseExpectation(changed, file, ContractExpectation) as ContractExpectation;
        // clients/servers say which pairing the file speaks for: the loader refuses a changed one
        if (!appliesTo(expectation, { client: "ts1", server: "py" })) return true;
        return verifyContract(run, expectation).some((v) => !v.ok);
      } catch (error) {
        return error instanceof ExpectationError;
      }
    });
    assert.ok(checked >= 20, `${checked} values checked`);
    assert.equal(survivors, [], `changes that went unnoticed: ${survivors.join(", ")}`);
  });
}

pyTest("the requestedSchema checked is the one the py server sends: pydantic's, with titles", async () => {
  const run = await only(contractCase("accept_missing_field"));
  const schema = loadContractExpectation("accept_missing_field", contractDir(undefined, "py"), "py").requestedSchema as { title?: unknown };
  assert.is(schema.title, "CalculateForm");
  const sent = run.wire.find((f) => f.label.method === "elicitation/create" && f.from === "server")!;
  assert.is((paramsOf(sent.message)?.requestedSchema as { title?: unknown }).title, "CalculateForm");
  const ts1Schema = loadContractExpectation("accept_missing_field").requestedSchema;
  assert.not.ok(verifyContract(run, { ...loadContractExpectation("accept_missing_field", contractDir(undefined, "py"), "py"), requestedSchema: ts1Schema }).every((v) => v.ok));
});

pyTest("a py server whose stdin closes right after its input answers initialize, fails the pending call, exits 0 unkilled", async () => {
  const lines: string[] = [];
  const command = PY_SERVER.child!.command({ eventsFile: undefined, faults: [] });
  const child = new StdioChild(command, { line: (l) => lines.push(l), badLine: () => {}, closed: () => {} });
  await child.spawned();
  const frames = [
    { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { elicitation: { form: {} } }, clientInfo: { name: "probe", version: "0" } } },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "calculate", arguments: {} } },
  ];
  child.process.stdin.write(frames.map((f) => `${JSON.stringify(f)}\n`).join(""));
  const evidence = await child.close(); // ends stdin now, before the interpreter has even imported mcp
  const seen = lines.map((l) => JSON.parse(l) as { id?: unknown; method?: unknown; error?: { code?: unknown } });
  const named = seen.map((m) => `${String(m.id)} ${String(m.method ?? (m.error ? `error ${String(m.error.code)}` : "result"))}`);
  // Always the initialize reply. Then the pending call ends however the EOF meets it: the tool's
  // elicitation/create may have gone out, and the dispatcher, cancelling the handler at EOF
  // (jsonrpc_dispatcher.py:527-533), may still write -32000 "Connection closed" for it (:765).
  // Both, one or the other were seen; never a computed result.
  assert.is(named[0], "0 result");
  const rest = named.slice(1);
  assert.ok(["1 elicitation/create", "1 error -32000", "1 elicitation/create,1 error -32000"].includes(rest.join()), named.join("; "));
  assert.is(evidence.exitCode, 0);
  assert.is(evidence.forcedKill, false, "it exits on EOF without waiting for its 10 s elicitation bound");
  assert.equal(evidence.stdoutErrors, []);
});

pyTest("Resolve/Elicit on the py server: a refused accept never reaches the tool (an isError result, no invalid_content); a valid one computes 21", async () => {
  const resolve = (label: string, content: Record<string, unknown>) => ({ label, tool: "calculate_resolve", callback: { answer: { action: "accept" as const, content } } });
  const scenario = { name: "resolve", summary: "calculate_resolve twice", capabilities: FORM_CAPABILITY, listToolsFirst: false, calls: [resolve("first", { units: 3 }), resolve("recovery", { units: 3, unit_value: 7 })] };
  const run = await runSession(scenario, TRANSPORTS.stdio!.open, "stdio", { loop: "sdk", server: PY_SERVER });
  assert.equal(run.errors, []);
  const results = run.events.filter((e) => e.kind === "tool.result").map((e) => ({ call: e.detail?.call, isError: e.detail?.isError, status: (e.detail?.result as { status?: unknown } | null)?.status }));
  // resolve.py:577-586: the SDK's ValueError becomes a ToolError before the tool body runs
  assert.equal(results, [{ call: "first", isError: true, status: undefined }, { call: "recovery", isError: false, status: "calculated" }]);
  const refused = run.wire.find((f) => f.label.method === "tools/call" && f.label.frameType === "result")!;
  assert.match(JSON.stringify(resultOf(refused.message)?.content), "does not match the requested schema");
});

// A plan the lab cannot write (JSON.stringify prints 3.0 as 3), so the test writes it: the real
// py driver answers units 3.0, with no tools/list before the call.
const FLOAT_PLAN = `{"scenario":"float","capabilities":{"elicitation":{"form":{}}},"listToolsFirst":false,"calls":[{"label":"first","args":{},"callback":{"answer":{"action":"accept","content":{"units":3.0,"unit_value":7}}}}],"callTimeoutMs":15000}`;
const floatClient: ClientPeer = {
  ...PY_CLIENT,
  name: "py-answers-3.0",
  driver: {
    kind: "process",
    command: (_planFile, eventsFile) => {
      const plan = join(tmpdir(), `lab-float-plan-${process.pid}.json`);
      writeFileSync(plan, FLOAT_PLAN);
      return (PY_CLIENT.driver as Extract<ClientPeer["driver"], { kind: "process" }>).command(plan, eventsFile);
    },
  },
};

pyTest("py client answering 3.0: ts1 computes 21, the py server's strict pydantic refuses it; an extra tools/list follows the result", async () => {
  const scenario = findScenario("fixed-fixture")!; // only its name is used: the plan above drives the client
  const [ts1, py] = await Promise.all([TS1_SERVER, PY_SERVER].map((server) => runSession(scenario, TRANSPORTS.stdio!.open, "stdio", { loop: "sdk", client: floatClient, server })));
  for (const run of [ts1!, py!]) assert.equal(run.errors, []);
  assert.equal(resultsOf(ts1!.events).first, { status: "calculated", computed: true, value: 21 });
  // through the relay: the py server saw the driver's own bytes, 3.0
  assert.equal(resultsOf(py!.events).first, { status: "invalid_content", computed: false, value: null, rejectedBy: "sdk" });
  for (const run of [ts1!, py!]) {
    const methods = run.wire.filter((f) => f.from === "client" && isRequest(f.label)).map((f) => f.label.method);
    assert.equal(methods, ["initialize", "tools/call", "tools/list"], "ClientSession.call_tool lists tools it has not seen (client/session.py:1101-1102, 1125-1127)");
  }
});

test.run();
