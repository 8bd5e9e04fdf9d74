// The Python driver over Streamable HTTP (issue 46): a real py1 session (mcp 1.29.0's own HTTP client, lab_http.py)
// against ts1, which the lab serves in its process and records on the server's side. It must pass the same
// hand-written expectation as over stdio (expected/nested.sdk.py1.ts1.json: the nested tools/list deadlocks until the
// SDK's 0.5 s limit), its wire must be the lab's own record, and a copy whose reply is moved past the limit is
// rejected. A process client runs over http only when http is asked alone (opt-in).
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { nestedCells } from "../lab/check/card.js";
import { expectationFor } from "../lab/check/expectations.js";
import { verify } from "../lab/check/verify.js";
import { driverFault } from "../lab/check/driver-fault.js";
import type { ClientPeer } from "../lab/plan/peer.js";
import { runSession } from "../lab/session/session.js";
import { TRANSPORTS } from "../lab/transports/index.js";
import { FASTMCP_CLIENT } from "../lab/peers/fastmcp/index.js";
import { PY1_CLIENT } from "../lab/peers/py1/index.js";
import { transportProblem } from "../lab/peers/registry.js";
import { TS1_SERVER } from "../lab/peers/ts1/index.js";
import { readVersions } from "../lab/peers/versions.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import { findScenario } from "../scenarios/index.js";
import { copy } from "./support/runs.js";
import { needs } from "./support/needs.js";

const py1Test = needs(PY1_CLIENT);
let shared: Promise<RunRecord> | undefined;
const real = () =>
  (shared ??= runCase(findScenario("nested")!, "sdk", { client: PY1_CLIENT, transports: ["http"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((r) => r.runs[0]!));
const expected = () => expectationFor("nested", "sdk", { client: "py1", server: "ts1" })!.expectation;

py1Test("py1 over http: nested passes expected/nested.sdk.py1.ts1.json, deadlocked until the SDK's limit (408)", async () => {
  const run = await real();
  assert.is(run.transport, "http");
  assert.equal(run.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`), []);
  assert.is(run.events.find((e) => e.kind === "nested.failed")?.detail?.code, 408);
  assert.is(nestedCells({ events: run.events, wire: run.wire, negotiatedProtocol: run.negotiatedProtocol }).nested?.value, "deadlocks until the SDK's request limit");
});

py1Test("py1 over http: the driver was handed the lab's URL, wrote nothing on stdout, and the port was released", async () => {
  const evidence = (await real()).transportEvidence;
  assert.is(evidence.kind, "relay");
  if (evidence.kind !== "relay") return;
  assert.match(evidence.served?.url ?? "", /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  assert.ok(evidence.served?.portReleased);
  assert.equal(evidence.driver.args.slice(-2), ["--http", evidence.served!.url]);
  assert.equal(evidence.driver.stdoutErrors, []);
  assert.is(evidence.driver.exitCode, 0);
});

py1Test("py1 over http, corrupted: the nested reply moved past the callback's failure is rejected", async () => {
  const run = copy(await real());
  const sent = run.events.find((e) => e.kind === "nested.sent")!;
  const failed = run.events.find((e) => e.kind === "nested.failed")!;
  const request = run.wire.find((f) => f.from === "client" && f.label.method === "tools/list" && f.t > sent.t)!;
  const reply = run.wire.find((f) => f.from === "server" && f.label.id === request.label.id && f.label.frameType === "result")!;
  reply.t = failed.t + 1;
  for (const e of run.events.filter((e) => e.kind === "frame.sent" && e.frame === reply.index)) e.t = reply.t;
  run.events.sort((a, b) => a.t - b.t).forEach((e, i) => (e.seq = i));
  assert.ok(verify(run, expected()).some((v) => !v.ok && v.check.startsWith("order")));
});

test("a driver over http that dies at once: its fault is said, the lab's server stopped and its port released", async () => {
  const dies: ClientPeer = { ...PY1_CLIENT, name: "dies-over-http", unavailable: () => undefined,
    driver: { kind: "process", command: () => ({ command: process.execPath, args: [] }), http: () => ({ command: process.execPath, args: ["-e", "process.exit(3)"] }) } };
  const run = await runSession(findScenario("nested")!, TRANSPORTS.http!.open, "http", { loop: "sdk", client: dies, server: TS1_SERVER });
  assert.match(driverFault(run) ?? "", /exited with code 3/);
  assert.ok(run.transportEvidence.kind === "relay" && run.transportEvidence.served?.portReleased);
});

test("a process client over http: only with an HTTP driver, a server the lab can serve, and http asked alone", () => {
  const column = { client: PY1_CLIENT, loop: "sdk" as const, server: TS1_SERVER };
  assert.is(transportProblem(column, "http", ["http"]), undefined);
  assert.match(transportProblem(column, "http", ["memory", "stdio", "http"]) ?? "", /only when asked alone/);
  assert.match(transportProblem({ ...column, client: FASTMCP_CLIENT }, "http", ["http"]) ?? "", /has no HTTP driver/);
});

test.run();
