// py-modern: the Python SDK 2.3.0 high-level Client pinned to 2026-07-28, in ONE real run (nested,
// against the ts2 server, over stdio) shared by every test here: it passes its hand-written
// expectation; nothing goes from server to client; the callback answered each input_required round
// locally; and the expectation rejects that run's evidence with a round taken out or reordered.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectationFor } from "../lab/check/expectations.js";
import { resultsOf, verify } from "../lab/check/verify.js";
import { isRequest } from "../lab/history/frames.js";
import { PY_MODERN_CLIENT } from "../lab/peers/py/index.js";
import { TS2_SERVER } from "../lab/peers/ts2/index.js";
import { readVersions } from "../lab/peers/versions.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import { findScenario } from "../scenarios/index.js";
import { copy } from "./support/runs.js";
import { needs } from "./support/needs.js";

/** a test that needs PY_MODERN_CLIENT: without it, a named skip (under CI=true, a failure) */
const pyModernTest = needs(PY_MODERN_CLIENT);
let shared: Promise<RunRecord> | undefined;
const run = () =>
  (shared ??= runCase(findScenario("nested")!, "sdk", { client: PY_MODERN_CLIENT, server: TS2_SERVER, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((r) => r.runs[0]!));
const failures = (r: RunRecord) => r.verdicts.filter((v) => !v.ok).map((v) => `${v.check}: ${v.details.join("; ")}`);
const CALCULATED = { status: "calculated", computed: true, value: 21 };

pyModernTest("py-modern can run here, and is pinned to 2026-07-28", () => {
  assert.is(PY_MODERN_CLIENT.era, "2026-07-28");
  run().catch(() => undefined); // reported by the tests that read it
});

pyModernTest("py-modern -> ts2 (nested): passes expected/nested.sdk.py-modern.ts2.json; 21 twice; nothing from server to client", async () => {
  const r = await run();
  assert.equal(failures(r), []);
  assert.is(r.fault, undefined);
  assert.is(r.negotiatedProtocol, "2026-07-28");
  assert.equal(resultsOf(r.events), { first: CALCULATED, recovery: CALCULATED });
  assert.equal(r.wire.filter((f) => f.from === "server" && isRequest(f.label)).map((f) => f.label.method), []);
  // the pin adopts without a probe (client.py:462-467): neither handshake is on the wire
  assert.not.ok(r.wire.some((f) => f.label.method === "initialize" || f.label.method === "server/discover"));
});

pyModernTest("py-modern: the callback answered each round locally (an input request's key, no wire id)", async () => {
  const r = await run();
  const rounds = r.events.filter((e) => e.kind.startsWith("round.")).map((e) => [e.kind, e.detail?.call, e.detail?.round, e.detail?.keys]);
  assert.equal(rounds, [
    ["round.input_required", "first", 1, ["form"]],
    ["round.answered", "first", 1, ["form"]],
    ["round.input_required", "recovery", 1, ["form"]],
    ["round.answered", "recovery", 1, ["form"]],
  ]);
  const entered = r.events.filter((e) => e.kind === "callback.entered");
  assert.equal(entered.map((e) => [e.id, e.origin, e.detail?.embedded]), [["form", undefined, true], ["form", undefined, true]]);
});

pyModernTest("py-modern: the expectation rejects the real run with a round dropped, or answered before its callback left", async () => {
  const r = await run();
  const { expectation } = expectationFor("nested", "sdk", { client: "py-modern", server: "ts2" })!;
  const failed = (events: typeof r.events) => verify({ events, wire: r.wire, transport: "stdio" }, expectation).filter((v) => !v.ok).map((v) => v.check);
  assert.equal(failed(r.events), [], "the real run itself must pass");
  const dropped = copy(r.events).filter((e) => !(e.kind === "round.answered" && e.detail?.call === "first"));
  assert.ok(failed(dropped).includes("client events"), "a dropped round.answered was accepted");
  const early = copy(r.events);
  const left = early.find((e) => e.kind === "callback.left" && e.detail?.call === "first")!;
  const answered = early.find((e) => e.kind === "round.answered" && e.detail?.call === "first")!;
  [left.seq, answered.seq] = [answered.seq, left.seq];
  assert.ok(failed(early).includes("order: the client answers the round only after its callback answered"), "a round answered before its callback left was accepted");
});

test.run();
