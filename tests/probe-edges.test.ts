// The probes when they cannot judge: a client that declines, cancels, never answers or declared
// no elicitation, an answer that comes too fast, and arguments out of range. Each ends with a
// clear result (never a crash), and the server keeps serving. Also `serve` from the command line.
import { serverChildOf } from "../lab/plan/evidence.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cancelledRequestId, resultOf } from "../lab/history/frames.js";
import { resultsOf } from "../lab/check/verify.js";
import { lifecycleProblems } from "../lab/transports/child-process.js";
import { TS1_CLIENT } from "../lab/peers/ts1/index.js";
import { MIN_PINGS_FOR_SERIAL } from "../lab/peers/ts1/probe-judge.js";
import { type SessionEvidence } from "../lab/plan/session.js";
import { runMain } from "./support/cli.js";
import { EDGE_SCENARIO, NEVER_LIMIT_MS, NO_CAPABILITY_SCENARIO, PROBE_SCENARIO, probeRun, SERVE_TSX, TOO_FAST_SCENARIO } from "./support/probe.js";

type Structured = Record<string, unknown> & { elicitation: Record<string, unknown>; pings: Record<string, number> };
const structured = (run: SessionEvidence, call: string) => resultsOf(run.events)[call] as Structured;

/** The text of each tools/call result, in call order (an error result has no structured content). */
function callTexts(run: SessionEvidence): { isError: boolean; text: string }[] {
  return run.wire
    .filter((f) => f.from === "server" && f.label.method === "tools/call" && f.label.frameType === "result")
    .map((f) => {
      const r = resultOf(f.message) as { isError?: boolean; content: { text: string }[] };
      return { isError: r.isError === true, text: r.content[0]!.text };
    });
}

for (const transport of ["memory", "serve"] as const) {
  test(`declined, cancelled, never answered, bad arguments (${transport}): clear results, and the server keeps serving`, async () => {
    const run = await probeRun(EDGE_SCENARIO, TS1_CLIENT, "sdk", transport);
    assert.equal(run.errors, []);
    if (transport === "serve") assert.equal(lifecycleProblems(run.transportEvidence), []);
    for (const [call, action] of [["declined", "decline"], ["cancelled", "cancel"]] as const) {
      const r = structured(run, call);
      assert.is(r.verdict, "not_run");
      assert.match(String(r.reason), `answered ${action}`);
      assert.match(String(r.text), /^Verdict: not_run \(the probe could not run\)/);
      assert.is(r.elicitation.action, action);
    }
    const fanOut = structured(run, "fan-out-declined");
    assert.is(fanOut.status, "not_run");
    assert.match(String(fanOut.reason), "2 of 2 requests were answered decline");

    const never = structured(run, "never");
    assert.is(never.verdict, "not_run");
    assert.is(never.elicitation.outcome, "limit");
    assert.match(String(never.reason), `within the probe's limit of ${NEVER_LIMIT_MS} ms`);
    // the loop stayed live meanwhile, and the probe says so without judging
    assert.ok(never.pings.answeredWhilePending! > 0);
    // withdrawn on the wire, and the client's callback ended on that withdrawal
    const elicitationId = run.wire.filter((f) => f.label.method === "elicitation/create" && f.label.frameType === "request")[4]!.label.id;
    assert.not.ok(run.wire.some((f) => f.from === "client" && f.label.id === elicitationId && f.label.method === "elicitation/create"), "no reply to the withdrawn request");
    // the client's callback ended because the server withdrew the request, not on its own bound
    assert.equal(run.events.filter((e) => e.detail?.neverEnded !== undefined).map((e) => e.detail!.neverEnded), ["withdrawn"]);
    // only what was still open was withdrawn: one cancellation per request with no reply
    const cancelled = run.wire.filter((f) => f.from === "server" && f.label.method === "notifications/cancelled").map((f) => cancelledRequestId(f.message));
    // A ping's reply and its withdrawal can cross on the way (the spec allows a cancellation to
    // race the response; on a loaded machine the server's timer can run before it reads a reply
    // already sent): the claim is about the elicitations, which the probe answers or withdraws.
    const answered = new Set(run.wire.filter((f) => f.from === "client" && f.label.origin === "server" && f.label.method !== "ping" && (f.label.frameType === "result" || f.label.frameType === "error")).map((f) => f.label.id));
    assert.ok(cancelled.includes(elicitationId));
    assert.equal(cancelled.filter((id) => answered.has(id)), [], "no cancellation for an answered elicitation");

    const texts = callTexts(run);
    const bad: [number, RegExp][] = [[4, /pingIntervalMs/], [5, /limitMs/], [6, /pingIntervalMs/], [7, /Too big.*n/], [8, /Too small.*n/], [9, /n/]];
    for (const [i, argument] of bad) {
      assert.ok(texts[i]!.isError, `call ${i} refused`);
      assert.match(texts[i]!.text, /Input validation error: Invalid arguments for tool probe_/);
      assert.match(texts[i]!.text, argument);
    }
    assert.equal(structured(run, "recovery"), { status: "calculated", computed: true, value: 21 });
  });
}

test("an answer with no think time under the serial model: inconclusive, saying how long it took", async () => {
  const run = await probeRun(TOO_FAST_SCENARIO, TS1_CLIENT, "serial", "memory");
  const r = structured(run, "loop");
  assert.is(r.verdict, "inconclusive");
  assert.ok(r.pings.sent! < MIN_PINGS_FOR_SERIAL);
  assert.match(String(r.reason), `answered after ${String(r.elicitation.pendingMs)} ms, before a ping could tell`);
  const one = structured(run, "fan-out-one");
  assert.is(one.status, "ran");
  assert.is(one.pattern, "none");
});

test("a client that declared no elicitation: the probes say they could not run, and send nothing", async () => {
  const run = await probeRun(NO_CAPABILITY_SCENARIO, TS1_CLIENT, "sdk", "memory");
  assert.is(structured(run, "loop").verdict, "not_run");
  assert.match(String(structured(run, "loop").reason), "declared no form elicitation");
  assert.is(structured(run, "fan-out").status, "not_run");
  assert.not.ok(run.wire.some((f) => f.label.method === "elicitation/create" || f.label.method === "ping"));
});

test("serve through tsx (tsx lab/run.ts serve): only JSON-RPC on stdout, the probe runs, the child exits 0", async () => {
  const run = await probeRun({ ...PROBE_SCENARIO, calls: PROBE_SCENARIO.calls.filter((c) => c.label !== "fan-out") }, TS1_CLIENT, "sdk", "serve", SERVE_TSX);
  assert.equal(run.errors, []);
  assert.equal(lifecycleProblems(run.transportEvidence), []);
  assert.equal(serverChildOf(run.transportEvidence)?.stdoutErrors, []);
  assert.is(structured(run, "loop").verdict, "concurrent");
  assert.match(String(serverChildOf(run.transportEvidence)?.stderr), "serving calculate and the probe tools");
});

test("serve with an unknown argument: one line on stderr, exit 2, and no server started", async () => {
  const r = await runMain(["serve", "--fault", "die-mid-call"]);
  assert.is(r.code, 2);
  const lines = r.stderr.trim().split("\n");
  assert.is(lines.length, 1, r.stderr);
  assert.match(lines[0]!, /^error: serve: unknown option '--fault' \(usage: tsx lab\/run.ts serve --help\)$/);
  for (const [args, why] of [[["--port", "1"], "--port goes with --http"], [["--once", "--http"], "--once serves stdio only"], [["--report"], "--report needs a value"]] as const) {
    const bad = await runMain(["serve", ...args]);
    assert.is(bad.code, 2);
    assert.match(bad.stderr, why);
  }
});

test.run();
