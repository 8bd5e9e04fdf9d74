// The probe tools against every client peer the lab has: `serve` runs as a real stdio child
// (and in memory for clients in this process); the probe's verdict, computed from the server's
// side only, must match what the client's own timeline shows.
import { serverChildOf } from "../lab/plan/evidence.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { clientSideProbe } from "../lab/check/probe-timeline.js";
import { replyTo, resultsOf } from "../lab/check/verify.js";
import { isRequest, resultOf } from "../lab/history/frames.js";
import { lifecycleProblems } from "../lab/transports/child-process.js";
import { type SessionEvidence } from "../lab/plan/session.js";
import { needs, skipNamed } from "./support/needs.js";
import { FAN_OUT_N, PROBE_SAMPLING_SCENARIO, PROBE_ROWS, PROBE_SCENARIO, probeClient, probeRun, transportsFor } from "./support/probe.js";

/** LAB_PROBE_PRINT=1 prints each run's measured numbers (for the README and reports). */
const UNSUPPORTED = { status: "unsupported", computed: false, value: null };
const print = (line: string) => process.env.LAB_PROBE_PRINT === "1" && console.error(`probe.test: ${line}`);
const ownResult = (run: SessionEvidence, call: string) => resultsOf(run.events)[call] as Record<string, unknown>;

/** The server's structured result for `call`, from its reply on the wire (the n-th call is the n-th tools/call). */
function resultOnWire(run: SessionEvidence, call: string): Record<string, unknown> {
  const n = run.events.filter((e) => e.kind === "call.started").findIndex((e) => e.detail?.call === call);
  const request = run.wire.filter((f) => f.from === "client" && isRequest(f.label) && f.label.method === "tools/call")[n];
  const reply = request && replyTo(run.wire, request);
  return ((resultOf(reply?.message) as { structuredContent?: Record<string, unknown> } | undefined)?.structuredContent ?? {});
}

/** The session's own errors and every child's lifecycle: `serve` (the top-level child for a client
 *  in this process; `server` when the lab relays a client driver to it) and the driver, which
 *  ends its own session by exiting, so only that exit is not a problem. */
function sessionProblems(run: SessionEvidence): string[] {
  if (run.transport !== "stdio") return run.errors;
  const evidence = run.transportEvidence;
  assert.ok(serverChildOf(evidence), "the serve child's lifecycle is kept");
  return [...run.errors, ...lifecycleProblems(evidence)];
}

// npm test runs the table's core rows; LAB_TESTS=full (.ci/run) every row. When this file's tests
// begin (not when uvu loads it, beside other files' tests), every session they await is run, a few
// at a time so their waits overlap, and the tests read them once all have ended.
test.before(() => {
  const started: Promise<unknown>[] = [];
  for (const row of PROBE_ROWS) {
    const client = probeClient(row.client);
    if (typeof client === "string") continue;
    for (const transport of transportsFor(client)) {
      started.push(probeRun(PROBE_SCENARIO, client, row.loop, transport));
      if (row.sampling !== undefined) started.push(probeRun(PROBE_SAMPLING_SCENARIO, client, row.loop, transport));
    }
  }
  return Promise.allSettled(started).then(() => undefined);
});

for (const row of PROBE_ROWS) {
  const client = probeClient(row.client);
  if (typeof client === "string") {
    needs({ name: row.client, unavailable: () => client })(`${row.client} under ${row.loop}: probe_receive_loop says ${row.verdict}`, () => {});
    continue;
  }
  // a framework that hands its caller text only (ProbeRow.textOnly): its results are read where the lab recorded them
  const structured = row.textOnly ? resultOnWire : ownResult;
  for (const transport of transportsFor(client)) {
    const name = `${row.client} under ${row.loop}, ${transport === "serve" ? "serve as a stdio child" : "in memory"}`;
    // One session calls probe_receive_loop and probe_fan_out; both tests read it.
    let probeSession: Promise<SessionEvidence> | undefined;
    const probeSessionRun = () => (probeSession ??= probeRun(PROBE_SCENARIO, client, row.loop, transport));

    test(`${name}: probe_receive_loop says ${row.verdict}, and so does the client's own timeline`, async () => {
      const run = await probeSessionRun();
      assert.equal(sessionProblems(run), []);
      const probe = structured(run, "loop");
      if (row.verdict === "not_run") {
        // a client that declares no form elicitation is never sent a form (lab/peers/ts1/probe-infer.ts:49)
        assert.match(String(probe.reason), "declared no form elicitation");
        assert.not.ok(run.wire.some((f) => f.label.method === "elicitation/create"));
        return;
      }
      const side = clientSideProbe(run, "loop");
      assert.is(probe.verdict, row.verdict, String(probe.text));
      assert.is(side.loop, row.verdict, JSON.stringify(side));
      const pings = probe.pings as { sent: number; answeredWhilePending: number; answeredAfter: number };
      // the server's own read order is the order of the frames the lab recorded on the wire
      assert.is(pings.answeredWhilePending, side.pingRepliesBeforeAnswer, JSON.stringify({ pings, side }));
      assert.is(probe.answeredWhilePending, row.verdict === "concurrent");
      assert.is(probe.firstPingReply, row.verdict === "concurrent" ? "before_reply" : "after_reply");
      assert.equal((probe.elicitation as { action: string }).action, "accept");
      assert.equal((probe.elicitation as { content: unknown }).content, { ready: true });
      assert.is(typeof probe.text, "string");
      print(`${name}: ${String(probe.text)}\n  client side: ${JSON.stringify(side)}`);
    });

    test(`${name}: probe_fan_out infers what the client's peak of callbacks shows`, async () => {
      const run = await probeSessionRun();
      const probe = structured(run, "fan-out");
      const side = clientSideProbe(run, "fan-out");
      const oneAtATime = row.verdict === "serial";
      if (row.verdict === "not_run") {
        assert.is(probe.status, "not_run", String(probe.text));
        assert.equal(structured(run, "recovery"), UNSUPPORTED);
        return;
      }
      assert.is(side.callbacks, FAN_OUT_N);
      assert.is(side.peakCallbacks, oneAtATime ? 1 : FAN_OUT_N);
      assert.is(probe.status, "ran", String(probe.text));
      assert.is(probe.label, "inference");
      assert.is(probe.pattern, oneAtATime ? "one_at_a_time" : "all_at_once", String(probe.text));
      assert.is(probe.aboutAtOnce, side.peakCallbacks);
      if (oneAtATime) assert.equal(probe.replyOrder, [1, 2, 3, 4]);
      assert.match(String(probe.limits), "reply times only");
      // the server keeps serving: calculate in the same session
      assert.equal(structured(run, "recovery"), { status: "calculated", computed: true, value: 21 });
      print(`${name}: ${String(probe.text)}\n  client side: peak ${side.peakCallbacks} callbacks at once`);
    });

    const sampling = row.sampling;
    const samplingTitle = `${name}: probe_sampling says ${sampling ?? "(not claimed yet)"}, and so does the client's own timeline`;
    if (sampling === undefined) skipNamed(samplingTitle);
    else
      test(samplingTitle, async () => {
        const run = await probeRun(PROBE_SAMPLING_SCENARIO, client, row.loop, transport);
        assert.equal(sessionProblems(run), []);
        const probe = structured(run, "sampling");
        const side = clientSideProbe(run, "sampling", "sampling/createMessage");
        assert.is(probe.method, "sampling/createMessage");
        assert.is(probe.verdict, sampling, String(probe.text));
        // a client that declares sampling is measured; one that declares none is never asked (langchain-py)
        const init = run.wire.find((f) => f.from === "client" && f.label.method === "initialize")?.message as { params?: { capabilities?: { sampling?: unknown } } } | undefined;
        const declared = init?.params?.capabilities?.sampling !== undefined;
        assert.match(String(probe.text), declared ? "Measured with sampling/createMessage" : "the client declared no sampling");
        if (sampling === "not_run") {
          // refused with a JSON-RPC error, or never sent: no callback ran on the client's side either
          assert.is(side.loop, "no_callback", JSON.stringify(side));
          if (declared) assert.is((probe.sampling as { outcome: string }).outcome, "error");
          else assert.not.ok(run.wire.some((f) => f.label.method === "sampling/createMessage"), "no sampling request to a client that declared none");
        } else {
          assert.is(side.loop, sampling, JSON.stringify(side));
          const pings = probe.pings as { answeredWhilePending: number };
          assert.is(pings.answeredWhilePending, side.pingRepliesBeforeAnswer, JSON.stringify({ pings, side }));
          assert.is(probe.firstPingReply, sampling === "concurrent" ? "before_reply" : "after_reply");
          assert.is((probe.sampling as { outcome: string }).outcome, "result");
        }
        // calculate asks for a form: a client that declares none gets unsupported
        assert.equal(structured(run, "recovery"), row.verdict === "not_run" ? UNSUPPORTED : { status: "calculated", computed: true, value: 21 });
        print(`${name}: ${String(probe.text)}\n  client side: ${JSON.stringify(side)}`);
      });
  }
}

test.run();
