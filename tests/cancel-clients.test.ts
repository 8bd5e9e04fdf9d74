// Cancellation across the callback on the other client peers (issue #18), against the ts1
// server, with the fewest runs: server-withdraws once with ts2 (memory), py and py-inline (stdio,
// their own processes, started at once). Each run is checked against its hand-written
// expectation; the same runs show the id-0 difference absent for ts2, what a Python callback
// sees on a withdrawal, where the late answers go; corrupted copies are rejected.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { withdrawAbortsCell } from "../lab/check/card-cancel.js";
import { expectationFor } from "../lab/check/expectations.js";
import { verify } from "../lab/check/verify.js";
import type { TimelineEvent } from "../lab/history/timeline.js";
import { PY_CLIENT, PY_INLINE_CLIENT } from "../lab/peers/py/index.js";
import { TS2_CLIENT } from "../lab/peers/ts2/index.js";
import type { ClientPeer } from "../lab/plan/peer.js";
import { readVersions } from "../lab/peers/versions.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import { planMatrix } from "../lab/cli/matrix.js";
import { UsageError } from "../lab/cli/args.js";
import { findScenario } from "../scenarios/index.js";
import { copy } from "./support/runs.js";
import { needs } from "./support/needs.js";

const SCENARIO = "server-withdraws";
const run = (client: ClientPeer, transport: "memory" | "stdio"): Promise<RunRecord> =>
  runCase(findScenario(SCENARIO)!, "sdk", { client, transports: [transport], repeat: 1, onDeadlock: "wait" }, readVersions()).then((r) => r.runs[0]!);
// Started together when this file's tests begin (not when uvu loads it: the in-process server's
// 250 ms withdrawal timer must not share the event loop with other files' work).
let started: Record<"ts2" | "py" | "py-inline", Promise<RunRecord>> | undefined;
const start = () => {
  started ??= { ts2: run(TS2_CLIENT, "memory"), py: run(PY_CLIENT, "stdio"), "py-inline": run(PY_INLINE_CLIENT, "stdio") };
  for (const r of Object.values(started)) r.catch(() => undefined);
  return started;
};
test.before(() => Promise.allSettled(Object.values(start())).then(() => undefined));
const runs = {
  get ts2() {
    return start().ts2;
  },
  get py() {
    return start().py;
  },
  get "py-inline"() {
    return start()["py-inline"];
  },
};

const failures = (r: RunRecord) => r.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);
const failedChecks = (r: RunRecord, client: string) =>
  verify(r, expectationFor(SCENARIO, "sdk", { client, server: "ts1" })!.expectation).filter((v) => !v.ok).map((v) => v.check);
const ids = (r: RunRecord, kind: string) => r.events.filter((e) => e.side === "client" && e.kind === kind).map((e) => e.id);
/** the client's answers to elicitation/create on the wire, by request id */
const answered = (r: RunRecord) => r.wire.filter((f) => f.from === "client" && f.label.frameType === "result" && f.label.method === "elicitation/create").map((f) => f.label.id);
const renumber = (events: TimelineEvent[]) => events.map((e, i) => ({ ...e, seq: i }));

test("ts2: the withdrawal of the server's request #0 aborts its callback (the v2 client has no id-0 defect)", async () => {
  const r = await runs.ts2;
  assert.equal(failures(r), []);
  const received = r.events.filter((e) => e.side === "client" && e.kind === "cancel.received");
  assert.equal(received.map((e) => [e.id, e.detail?.handler]), [[0, "running"], [1, "running"]]);
  assert.equal(ids(r, "callback.aborted"), [0, 1]);
  assert.equal(answered(r), [2], "no answer to a withdrawn form goes out");
  const cell = withdrawAbortsCell(r);
  assert.is(cell.value, "first request: aborted · later request: aborted");
  assert.is(cell.tone, "safe");
});

needs(PY_CLIENT)("py: peer_cancel_mode=interrupt cancels each callback's scope; it leaves by CancelledError and answers nothing", async () => {
  const r = await runs.py;
  assert.equal(failures(r), []);
  assert.equal(ids(r, "callback.aborted"), [0, 1]);
  const left = r.events.filter((e) => e.kind === "callback.left").map((e) => [e.id, e.detail?.error ?? e.detail?.action]);
  assert.equal(left, [[0, "CancelledError"], [1, "CancelledError"], [2, "accept"]]);
  assert.equal(answered(r), [2]);
  assert.is(r.events.filter((e) => e.side === "server" && e.kind === "reply.late").length, 0);
  assert.is(withdrawAbortsCell(r).value, "first request: aborted · later request: aborted");
});

needs(PY_INLINE_CLIENT)("py-inline: the withdrawal waits behind the parked loop; both forms are answered and the server drops the answers", async () => {
  const r = await runs["py-inline"];
  assert.equal(failures(r), []);
  assert.equal(ids(r, "callback.aborted"), []);
  assert.equal(answered(r), [0, 1, 2]);
  assert.equal(r.events.filter((e) => e.side === "server" && e.kind === "reply.late").map((e) => e.id), [0, 1]);
  assert.is(withdrawAbortsCell(r).value, "first request: not aborted · later request: not aborted");
});

needs([PY_CLIENT, PY_INLINE_CLIENT])("corrupted real evidence is rejected: an abort removed (py), a result read before its form was answered (py-inline)", async () => {
  const py = copy(await runs.py);
  py.events = renumber(py.events.filter((e) => e.kind !== "callback.aborted"));
  const pyFailed = failedChecks(py, "py");
  assert.ok(pyFailed.includes("client events"), pyFailed.join(", "));
  assert.ok(pyFailed.includes("order: first-request: the withdrawal of #0 interrupts the callback (no id-0 defect)"));
  assert.is(withdrawAbortsCell(py).value, "first request: not aborted · later request: not aborted");

  const inline = copy(await runs["py-inline"]);
  const at = (kind: string) => inline.events.findIndex((e) => e.kind === kind && e.detail?.call === "first-request");
  const [result] = inline.events.splice(at("tool.result"), 1);
  inline.events.splice(at("callback.left"), 0, { ...result!, t: inline.events[at("callback.left")]!.t });
  inline.events = renumber(inline.events);
  assert.ok(failedChecks(inline, "py-inline").includes("order: first-request: the finished result is read only after the form is answered (the loop is parked)"));
});

test("a client pinned to 2026-07-28 is refused the cancellation scenarios in one line", () => {
  for (const name of ["call-cancelled", SCENARIO]) {
    const request = { scenarios: [findScenario(name)!], clients: ["ts2-modern"], servers: ["ts1"], loops: ["sdk" as const], transports: ["memory"], onDeadlock: "wait" as const, expectedDir: undefined };
    assert.throws(() => planMatrix({ ...request, all: false }), (e: unknown) => e instanceof UsageError && /^not run: .* client ts2-modern speaks 2026-07-28: .*no form is on the wire/.test(e.message) && !e.message.includes("\n"));
    // `all` lists it as not run instead (here nothing else is left to run)
    assert.throws(() => planMatrix({ ...request, all: true }), (e: unknown) => e instanceof UsageError && /nothing to run: .*speaks 2026-07-28/.test(e.message));
  }
});

test.run();
