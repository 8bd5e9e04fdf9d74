// The same scenarios over Streamable HTTP (a real HTTP server in a child on 127.0.0.1): the
// hand-written expectations hold, parity with memory holds on both sides, each frame's stream is
// known, the HTTP parity rule accepts a swap only where the evidence allows it, and every fault
// ends bounded with its evidence kept and no process or listening socket behind.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createServer } from "node:net";
import { compareParity, HTTP_STREAMS } from "../lab/check/parity.js";
import { httpServerSideAllowances, streamEvidence } from "../lab/check/http-parity.js";
import { contractScenario, findContractCase } from "../scenarios/contract/index.js";
import { contractRun } from "./support/contract-runs.js";
import { resultsOf } from "../lab/check/verify.js";
import { DIE_EXIT_CODE, DIE_STDERR_LINE } from "../lab/peers/ts1/child-faults.js";
import { LISTEN_FAILED_EXIT_CODE } from "../lab/peers/ts1/child-http.js";
import { ELICITATION_TIMEOUT_MS } from "../lab/peers/ts1/calculate-server.js";
import { readVersions } from "../lab/peers/versions.js";
import { withBound } from "../lab/plan/bounds.js";
import { runCase, type CaseReport } from "../lab/session/pipeline.js";
import { FORM_CAPABILITY, type Scenario } from "../lab/plan/scenario.js";
import { runSession } from "../lab/session/session.js";
import { type SessionEvidence } from "../lab/plan/session.js";
import { type ChildEvidence } from "../lab/plan/evidence.js";
import { HTTP_500_BODY, SSE_GARBAGE_DATA } from "../lab/transports/http-faults.js";
import { httpProblems, sseTap } from "../lab/transports/http-log.js";
import { type HttpEvidence } from "../lab/plan/evidence.js";
import { httpTransport } from "../lab/transports/http.js";
import { TRANSPORT_NAMES } from "../lab/transports/index.js";
import { Over } from "../lab/check/expectations.js";
import { serveStreamableHttp } from "../lab/transports/http-server.js";
import { isListening, listeningPortsOf } from "../lab/transports/listening.js";
import { lifecycleProblems } from "../lab/transports/stdio.js";
import { type ServerRecord } from "../lab/plan/evidence.js";
import { openMemoryTransport } from "../lab/transports/memory.js";
import { findScenario } from "../scenarios/index.js";
import nested from "../scenarios/nested.js";
import "./support/child-pids.js";

const BOUND_MS = 20_000;
type HttpRun = { http: HttpEvidence; serverRecord: ServerRecord | null };
/** An HTTP run's evidence: HTTP's own and the server's own record. */
const ev = (run: SessionEvidence): HttpRun => {
  const e = run.transportEvidence;
  if (e.kind !== "http") throw new Error(`not an HTTP run: ${e.kind}`);
  return { http: e.http, serverRecord: e.serverRecord ?? null };
};
/** The same, for a server child: its lifecycle beside HTTP's own. */
const evChild = (run: SessionEvidence): HttpRun & ChildEvidence => {
  const e = run.transportEvidence;
  if (e.kind !== "http" || !e.server) throw new Error(`not an HTTP run with a server child: ${e.kind}`);
  return { ...e.server, http: e.http, serverRecord: e.serverRecord ?? null };
};

const cases = new Map<string, Promise<CaseReport>>();
/** One case over memory and http (repeat 1), through the lab's own pipeline; shared by tests. */
function httpCase(scenario: string, loop: "sdk" | "serial"): Promise<CaseReport> {
  const key = `${scenario}.${loop}`;
  if (!cases.has(key)) {
    const run = runCase(findScenario(scenario)!, loop, { transports: ["memory", "http"], repeat: 1, onDeadlock: "wait" }, readVersions());
    cases.set(key, withBound(run, BOUND_MS * 2, `${key} over http`));
  }
  return cases.get(key)!;
}
const httpRunOf = (report: CaseReport) => report.runs.find((r) => r.transport === "http")!;

function gone(pid: number | null): boolean {
  if (pid === null) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Whatever the fault: the child is gone, its port is not listening, the evidence is there. */
function assertNothingLeft(run: SessionEvidence): void {
  const e = evChild(run);
  assert.ok(gone(e.pid), `child ${e.pid} is gone`);
  if (e.http.port !== null) {
    assert.is(e.http.portReleased, true);
    assert.not.ok(isListening(e.http.port), `port ${e.http.port} is not listening`);
  }
  // kept, both halves: how the child ended, and every request sent once it had said its port
  assert.ok(e.exitCode !== null || e.signal !== null, `the child's end is in the evidence (exit ${e.exitCode}, signal ${e.signal})`);
  if (e.http.port !== null) assert.ok(e.http.requests.length > 0, "the requests sent to the child are in the evidence");
}

for (const [scenario, loop] of [["nested", "sdk"], ["nested", "serial"], ["fan-out", "sdk"]] as const) {
  test(`${scenario} / ${loop} over http: every expectation holds and parity with memory holds on both sides`, async () => {
    const report = await httpCase(scenario, loop);
    const failed = report.runs.flatMap((r) => r.verdicts.filter((v) => !v.ok).map((v) => `${r.transport}: ${v.check}: ${v.details.join("; ")}`));
    assert.equal(failed, []);
    assert.is(report.parity.length, 1);
    const [parity] = report.parity;
    assert.ok(parity!.result.ok, `client side: ${JSON.stringify(parity!.result.firstDifference)}`);
    assert.ok(parity!.server?.ok, `server side: ${JSON.stringify(parity!.server?.firstDifference)}`);
    const run = httpRunOf(report);
    assert.equal(resultsOf(run.events), resultsOf(report.runs.find((r) => r.transport === "memory")!.events));
    assert.equal([...lifecycleProblems(run.transportEvidence), ...httpProblems(ev(run).http)], []);
  });
}

test("which stream each frame came on: replies on the POST that carried their request, the server's requests on the GET stream", async () => {
  const run = httpRunOf(await httpCase("nested", "sdk"));
  const { http } = ev(run);
  const fromServer = run.wire.filter((f) => f.from === "server");
  assert.equal(http.frameStreams.map((s) => s.frame).sort((a, b) => a - b), fromServer.map((f) => f.index));
  for (const frame of fromServer) {
    const via = http.frameStreams.find((s) => s.frame === frame.index)!;
    const request = http.requests[via.request]!;
    if (frame.label.frameType === "request") assert.is(request.method, "GET", `${frame.label.method} #${frame.label.id} came on the GET stream`);
    else assert.ok(request.carries.some((c) => c.frameType === "request" && c.id === frame.label.id), `reply #${frame.label.id} came on the POST that carried its request`);
  }
  assert.equal(http.requests.map((r) => r.method).filter((m) => m !== "POST"), ["GET", "DELETE"]);
  assert.ok(http.requests.every((r) => r.status === 200 || r.status === 202), "every request was answered 200 or 202");
  assert.ok(http.requests.slice(1).every((r) => r.sessionId === http.sessionId), "every request after initialize carries the session id");
  // python-sdk #693 was a client that sent one POST at a time: the answer waited behind the open
  // tools/call POST. Here the answer's POST goes out while that POST's stream is still open.
  const call = http.requests.find((r) => r.carries.some((c) => c.method === "tools/call" && c.id === 2))!;
  const answer = http.requests.find((r) => r.carries.some((c) => c.frameType === "result" && c.id === 0))!;
  assert.ok(call.t < answer.t && answer.t < call.tEnd!, "the answer was POSTed while the tools/call stream was open");
});

test("the HTTP parity rule: the server side may swap two arrivals only if their POSTs overlapped (corrupted copies of real evidence)", async () => {
  const report = await httpCase("nested", "serial");
  const memory = report.runs.find((r) => r.transport === "memory")!;
  const run = httpRunOf(report);
  const http = ev(run).http;
  const side = ev(run).serverRecord!;
  const at = (method: string, id: number) => side.events.findIndex((e) => e.side === "server" && e.kind === "frame.arrived" && e.method === method && e.id === id);
  const swapped = structuredClone(side.events);
  const [list, call] = [at("tools/list", 1), at("tools/call", 2)];
  [swapped[list], swapped[call]] = [swapped[call]!, swapped[list]!];
  // tools/call was POSTed after the tools/list POST was answered: they cannot swap
  const refused = compareParity(memory.events, swapped, httpServerSideAllowances(http), "server");
  assert.not.ok(refused.ok);
  assert.is(refused.firstDifference?.sequence, "frame.arrived");
  // the same swap, with the evidence edited so that the two POSTs were in flight together
  const overlapping = structuredClone(http);
  const postOf = (method: string) => overlapping.requests.find((r) => r.carries.some((c) => c.method === method))!;
  postOf("tools/list").tResponse = postOf("tools/call").t + 1;
  const accepted = compareParity(memory.events, swapped, httpServerSideAllowances(overlapping), "server");
  assert.ok(accepted.ok, JSON.stringify(accepted.firstDifference));
  assert.equal(accepted.reordered, ["frame.arrived: request tools/call #2 before request tools/list #1"]);
  // the client side has no such rule: a swap of two arrivals from different streams is refused
  const client = structuredClone(run.events);
  const elicit = client.findIndex((e) => e.side === "client" && e.kind === "frame.arrived" && e.method === "elicitation/create");
  const reply = client.findIndex((e) => e.side === "client" && e.kind === "frame.arrived" && e.method === "tools/list" && e.id === 3);
  [client[elicit], client[reply]] = [client[reply]!, client[elicit]!];
  assert.not.ok(compareParity(memory.events, client).ok);
});

test("the http-streams rule: two arrivals may trade places only if adjacent and on different streams (corrupted copies of real evidence)", async () => {
  const url = contractScenario(findContractCase("url")!);
  const memory = await contractRun("url");
  const run = await withBound(runSession(url, httpTransport({ inProcess: true }), "http", { loop: "sdk" }), BOUND_MS, "url over http");
  const http = ev(run).http;
  assert.ok(compareParity(memory.events, run.events, HTTP_STREAMS, "client", streamEvidence(http)).ok, "the real run agrees, whichever stream was read first");
  // memory's own story with the completion's arrival (and what it caused) and the result's traded
  const events = memory.events.filter((e) => e.side === "client");
  const at = (kind: string, method: string) => events.findIndex((e) => e.kind === kind && e.method === method);
  const complete = at("frame.arrived", "notifications/elicitation/complete");
  const result = events.findIndex((e, i) => i > complete && e.kind === "frame.arrived" && e.method === "tools/call");
  const end = events.findIndex((e, i) => i > result && (e.kind === "frame.arrived" || e.kind === "frame.sent"));
  const swapped = [...events.slice(0, complete), ...events.slice(result, end === -1 ? undefined : end), ...events.slice(complete, result), ...(end === -1 ? [] : events.slice(end))];
  const allowed = compareParity(memory.events, swapped, HTTP_STREAMS, "client", streamEvidence(http));
  assert.ok(allowed.ok, JSON.stringify(allowed.firstDifference));
  assert.equal(allowed.reordered?.length, 1);
  // the same swap is refused without HTTP evidence (stdio), and when both came on one stream
  assert.not.ok(compareParity(memory.events, swapped, HTTP_STREAMS, "client").ok);
  const oneStream = structuredClone(http);
  const get = oneStream.requests.find((r) => r.method === "GET")!;
  const post = oneStream.requests.find((r) => r.streamed?.some((f) => f.frameType === "result" && f.id === 1))!;
  post.streamed!.push(...get.streamed!.filter((f) => f.method === "notifications/elicitation/complete"));
  get.streamed = get.streamed!.filter((f) => f.method !== "notifications/elicitation/complete");
  assert.not.ok(compareParity(memory.events, swapped, HTTP_STREAMS, "client", streamEvidence(oneStream)).ok);
  // a swap that is not of two adjacent arrivals: the elicitation request's segment moved behind the result's
  const request = at("frame.arrived", "elicitation/create");
  const far = [...events.slice(0, request), ...events.slice(result, end === -1 ? undefined : end), ...events.slice(request, result), ...(end === -1 ? [] : events.slice(end))];
  assert.not.ok(compareParity(memory.events, far, HTTP_STREAMS, "client", streamEvidence(http)).ok);
});

test("in this process, behind a real HTTP server: the same client story, and nothing left listening", async () => {
  const memory = await runSession(nested, openMemoryTransport, "memory", { loop: "sdk" });
  const run = await withBound(runSession(nested, httpTransport({ inProcess: true }), "http", { loop: "sdk" }), BOUND_MS, "in-process http");
  assert.equal(run.errors, []);
  assert.ok(compareParity(memory.events, run.events).ok);
  assert.ok(compareParity(memory.events, ev(run).serverRecord!.events, httpServerSideAllowances(ev(run).http), "server").ok);
  assert.not.ok(listeningPortsOf("self").includes(ev(run).http.port!), "the server's port is closed");
});

test("the socket check sees a real listening socket held by this process, and sees it go", async () => {
  const server = await serveStreamableHttp();
  assert.ok(listeningPortsOf("self").includes(server.port) && isListening(server.port));
  await server.close();
  assert.not.ok(listeningPortsOf("self").includes(server.port) || isListening(server.port));
});

test("an expectation's `over` names exactly the registered transports", () => {
  assert.equal([...Over.shape.transports.element.options].sort(), TRANSPORT_NAMES().sort());
});

test("the SSE tap reads events as the SDK does: CRLF split across chunks, comments, multi-line data, other event types", async () => {
  const seen: string[] = [];
  const text = ': keepalive\r\n\r\ndata: {"a":\r\ndata: 1}\r\n\r\nevent: other\ndata: skipped\n\nid: 7\ndata: last\n\n';
  const bytes = new TextEncoder().encode(text);
  const chunks = [bytes.slice(0, 13), bytes.slice(13, 30), bytes.slice(30, 31), bytes.slice(31)];
  let ended = false;
  const out = new ReadableStream<Uint8Array>({ start: (c) => (chunks.forEach((b) => c.enqueue(b)), c.close()) }).pipeThrough(sseTap((d) => seen.push(d), () => (ended = true)));
  const passed = await new Response(out).text();
  assert.is(passed, text, "the bytes pass through untouched");
  assert.equal(seen, ['{"a":\n1}', "last"]);
  assert.ok(ended);
});

// ---- faults: each ends bounded, with a clear error and its evidence, and leaves nothing ----

const faultRun = (scenario: Scenario, options: Parameters<typeof httpTransport>[0], what: string) =>
  withBound(runSession(scenario, httpTransport(options), "http", { loop: "sdk" }), BOUND_MS, what);

test("fault: the server process dies mid-call: the call fails at once, exit code and stderr kept", async () => {
  const run = await faultRun(nested, { faults: ["die-mid-call"] }, "die-mid-call");
  const e = evChild(run);
  assert.is(e.exitCode, DIE_EXIT_CODE);
  assert.ok(e.stderr.includes(DIE_STDERR_LINE));
  const first = resultsOf(run.events).first as { error?: { code: number | null; message: string } };
  // the child dies before or after the tools/call POST is answered: fetch fails, or the SDK's close
  assert.ok(first.error && (first.error.message === "fetch failed" || first.error.code === -32000), JSON.stringify(first));
  // (whether the lab saw the exit before the session ended depends on timing: both calls may fail first)
  assert.ok(lifecycleProblems(run.transportEvidence).some((p) => p.includes(`exit code ${DIE_EXIT_CODE}`)));
  assertNothingLeft(run);
});

for (const [fault, status, body] of [["http-500", 500, HTTP_500_BODY], ["session-lost", 404, "Session not found"]] as const) {
  test(`fault: the server answers ${status} to the tools/call POST: both calls fail with the status's text, the child exits 0`, async () => {
    const run = await faultRun(nested, { faults: [fault] }, fault);
    const e = ev(run);
    const answered = e.http.requests.filter((r) => r.status === status);
    assert.ok(answered.some((r) => r.carries.some((c) => c.method === "tools/call")), "a tools/call POST was answered with the status");
    assert.ok(answered.every((r) => r.errorBody?.includes(body)), "the body is kept");
    for (const call of ["first", "recovery"]) {
      const result = resultsOf(run.events)[call] as { error?: { message: string } };
      assert.match(result.error?.message ?? "", body);
    }
    assert.ok(httpProblems(e.http).some((p) => p.includes(`answered ${status}`)));
    assert.equal(lifecycleProblems(run.transportEvidence), []);
    assertNothingLeft(run);
  });
}

test("fault: a malformed SSE event: the SDK reports it and carries on, the lab fails the run naming it", async () => {
  const run = await faultRun(nested, { faults: ["sse-garbage"] }, "sse-garbage");
  const e = ev(run);
  assert.equal(e.http.sseErrors.map((x) => x.data), [SSE_GARBAGE_DATA]);
  assert.is(e.http.requests[e.http.sseErrors[0]!.request]!.method, "GET");
  assert.ok(run.events.some((x) => x.side === "client" && x.kind === "sdk.error" && String(x.detail?.message).includes("is not valid JSON")));
  assert.ok(httpProblems(e.http).some((p) => p.includes(SSE_GARBAGE_DATA)));
  assert.equal(resultsOf(run.events).recovery, { status: "calculated", computed: true, value: 21 });
  assertNothingLeft(run);
});

test("fault: the port is taken when the server starts: the child exits, the session says why", async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const port = (blocker.address() as { port: number }).port;
  try {
    const run = await faultRun(nested, { port }, "port taken");
    const e = evChild(run);
    assert.is(e.exitCode, LISTEN_FAILED_EXIT_CODE);
    assert.match(e.stderr, "EADDRINUSE");
    assert.ok(run.errors.some((x) => x.includes("before it said its port") && x.includes("EADDRINUSE")), JSON.stringify(run.errors));
    assert.is(e.http.requests.length, 0, "no request was made");
    assert.ok(gone(e.pid));
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }
});

test("fault: the client closes while the server's request is pending: DELETE, the call fails -32000, the child exits 0 at once", async () => {
  const closes: Scenario = {
    name: "client-closes",
    summary: "the client closes its session from inside the elicitation callback",
    capabilities: FORM_CAPABILITY,
    listToolsFirst: false,
    calls: [{ label: "first", code: async (ctx) => (await ctx.client.close(), { action: "cancel" }) }],
  };
  const run = await faultRun(closes, {}, "client closes");
  const e = ev(run);
  assert.equal((resultsOf(run.events).first as { error: { code: number } }).error.code, -32000);
  const del = e.http.requests.find((r) => r.method === "DELETE");
  assert.is(del?.status, 200, "the session was ended with DELETE");
  const server = e.serverRecord!.events.filter((x) => x.side === "server");
  assert.ok(server.some((x) => x.kind === "frame.sent" && x.method === "elicitation/create"), "the server's request was out");
  assert.not.ok(server.some((x) => x.kind === "frame.arrived" && x.method === "elicitation/create"), "and never answered");
  assert.equal(lifecycleProblems(run.transportEvidence), []);
  assert.ok(run.durationMs < ELICITATION_TIMEOUT_MS, `ended in ${run.durationMs} ms, before the server's own timeout`);
  assertNothingLeft(run);
});

test.run();
