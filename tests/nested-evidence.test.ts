// What a real deadlock's evidence says, from real runs of py1 (mcp 1.29.0) and kotlin-0.14 (Kotlin SDK
// 0.14.0) against ts1 over stdio (issue 41, items 1 and 6).
// What ended the wait is read from the nested request's error, never from the plan: py1's SDK limit
// (McpError 408, "Waited 0.5 seconds."), kotlin-0.14's driver backstop (its SDK sets no limit on the
// wait); a corrupted error changes the words and the card's cell.
// The reply left unread on the client's pipe: py1's read is known from its SDK's late-reply report
// (the message handler's unknown-id note), kotlin-0.14's from its driver's own read of each frame.
// The SVG draws the wait as an amber band with its length from the evidence; a corrupted copy that
// moves the read changes the band, or removes it when the reply was read before the callback
// answered; a client the lab records from inside (its queue's own events) gets no such band.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { TimelineEvent } from "../lab/history/timeline.js";
import { KOTLIN_014_CLIENT } from "../lab/peers/jvm/index.js";
import { PY1_CLIENT } from "../lab/peers/py1/index.js";
import { readVersions } from "../lab/peers/versions.js";
import { moments, frameViews } from "../lab/render/story.js";
import { renderSvg } from "../lab/render/svg.js";
import { unreadFrames } from "../lab/render/unread.js";
import { runOutcome } from "../lab/render/outcome.js";
import { nestedCells } from "../lab/check/card.js";
import { DEADLOCK_UNTIL, waitEnd } from "../lab/check/wait-end.js";
import { runCase, type RunRecord } from "../lab/session/pipeline.js";
import type { ClientPeer } from "../lab/plan/peer.js";
import { findScenario } from "../scenarios/index.js";
import { copy, memoryRun } from "./support/runs.js";
import { needs } from "./support/needs.js";

const runs = new Map<string, Promise<RunRecord>>();
const real = (client: ClientPeer) => {
  if (!runs.has(client.name)) runs.set(client.name, runCase(findScenario("nested")!, "sdk", { client, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions()).then((r) => r.runs[0]!));
  return runs.get(client.name)!;
};
type Evidence = { events: TimelineEvent[]; wire: RunRecord["wire"] };
const svgOf = (run: Evidence) => renderSvg({ scenario: "nested", loop: "sdk", transport: "stdio", repeat: 1, events: run.events, wire: run.wire });
const bands = (svg: string) => [...svg.matchAll(/<g class="held-band unread-band" data-frame="(\d+)">(.*?)<\/g>/g)].map((m) => ({ frame: Number(m[1]), body: m[2]! }));
/** the nested request's reply on the wire */
const nestedReply = (run: Evidence) => {
  const request = run.wire.find((f) => f.from === "client" && f.label.method === "tools/list" && f.label.frameType === "request" && run.wire.some((e) => e.index < f.index && e.label.method === "elicitation/create"))!;
  return run.wire.find((f) => f.replyTo === request.index)!;
};
/** moves `event` to just before the first callback answers (read at once), keeping seq order */
function readBeforeAnswer(run: Evidence, event: TimelineEvent): Evidence {
  const bad = copy(run);
  const left = bad.events.find((e) => e.kind === "callback.left")!;
  const moved = bad.events.find((e) => e.seq === event.seq)!;
  moved.seq = left.seq - 0.5;
  moved.t = left.t - 0.1;
  bad.events.sort((a, b) => a.seq - b.seq);
  return bad;
}

function bandChecks(run: Evidence, read: TimelineEvent, label: string) {
  const reply = nestedReply(run);
  const found = unreadFrames(run.events, run.wire);
  assert.equal([...found.keys()], [reply.index], `${label}: only the nested reply waited unread`);
  const u = found.get(reply.index)!;
  assert.equal([u.onPipe, u.read, u.late], [reply.t, read.t, true]);
  const length = `${(read.t - reply.t).toFixed(1)} ms`;
  const drawn = bands(svgOf(run));
  assert.equal(drawn.map((b) => b.frame), [reply.index]);
  assert.ok(drawn[0]!.body.includes(length), `${label}: the band says ${length}: ${drawn[0]!.body}`);
  const note = moments(run.events, frameViews(run.events, run.wire)).find((m) => m.frame === reply.index && m.kind === "released-held");
  assert.ok(note?.lines[0]?.includes(`read after ${length} unread on the client's pipe`), JSON.stringify(note));
  // a read moved later lengthens the band by as much
  const later = copy(run);
  later.events.find((e) => e.seq === read.seq)!.t += 100;
  assert.ok(bands(svgOf(later))[0]!.body.includes(`${(read.t + 100 - reply.t).toFixed(1)} ms`), `${label}: the band follows the read`);
  // read before the callback answered: nothing waited, no band
  const atOnce = readBeforeAnswer(run, read);
  assert.equal(unreadFrames(atOnce.events, atOnce.wire).size, 0, `${label}: a reply read at once waited for nothing`);
  assert.equal(bands(svgOf(atOnce)), []);
}

needs(PY1_CLIENT)("py1: the nested reply waits unread on the pipe until the SDK reports it late; the band's length is from the wire to that report", async () => {
  const run = await real(PY1_CLIENT);
  const read = run.events.find((e) => e.side === "client" && e.kind === "note" && e.detail?.lateReply === true);
  assert.ok(read, "py1's driver noted the late reply (the message handler's unknown request ID)");
  bandChecks(run, read, "py1");
});

needs(KOTLIN_014_CLIENT)("kotlin-0.14: the nested reply waits unread until the driver's read of that frame, after the backstop", async () => {
  const run = await real(KOTLIN_014_CLIENT);
  const reply = nestedReply(run);
  const read = run.events.find((e) => e.side === "client" && e.kind === "frame.dispatched" && e.frame === reply.index);
  if (!read) throw new Error("kotlin-0.14's driver recorded no read of the nested reply");
  bandChecks(run, read, "kotlin-0.14");
});

/** the run's deadlock in words, and the card's nested cell value */
const said = (run: Evidence) => ({
  what: runOutcome({ events: run.events, wire: run.wire, errors: [], negotiatedProtocol: "2025-11-25", ok: true }).what,
  cell: nestedCells({ events: run.events, wire: run.wire, negotiatedProtocol: "2025-11-25" }).nested.value,
});
/** a copy whose nested request failed with `detail` instead */
function failedWith(run: Evidence, detail: Record<string, unknown>): Evidence {
  const bad = copy(run);
  bad.events.find((e) => e.kind === "nested.failed")!.detail = detail;
  return bad;
}

needs(PY1_CLIENT)("py1: the wait ends at the SDK's request limit, its length read from the error; a changed error changes the words", async () => {
  const run = await real(PY1_CLIENT);
  const failed = run.events.find((e) => e.kind === "nested.failed")!;
  assert.equal({ ...waitEnd(failed, undefined, run.wire), waitedMs: undefined }, { by: "sdk", error: "McpError 408", configuredMs: 500, waitedMs: undefined });
  assert.equal(said(run), { what: "deadlocked until the SDK's request limit (0.5 s, McpError 408)", cell: DEADLOCK_UNTIL.sdk });
  // the length is the error's, not the plan's (the plan still asks for 0.5 s)
  const longer = failedWith(run, { ...failed.detail, message: "Timed out while waiting for response to ClientRequest. Waited 0.9 seconds." });
  assert.equal(said(longer).what, "deadlocked until the SDK's request limit (0.9 s, McpError 408)");
  // an error no sign knows: the words say only that it failed, and the card's cell is not the SDK's
  const unknown = failedWith(run, { code: null, message: "boom", type: "RuntimeError" });
  assert.equal(said(unknown), { what: "deadlocked until the nested request failed", cell: DEADLOCK_UNTIL.unknown });
});

needs(KOTLIN_014_CLIENT)("kotlin-0.14: the wait ends at the lab's backstop, never at a 0.5 s limit; an SDK timeout in its place is told apart", async () => {
  const run = await real(KOTLIN_014_CLIENT);
  const { what, cell } = said(run);
  assert.equal([what, cell], ["deadlocked until the lab's 1.5 s backstop (TimeoutCancellationException): the SDK has no limit on this path", DEADLOCK_UNTIL.backstop]);
  assert.not.match(what, "0.5 s");
  // the same run as if the SDK's own limit had fired (0.15's McpException -32001): another kind, another cell
  const sdk = failedWith(run, { code: -32001, message: "Request timed out", type: "McpException" });
  assert.equal(said(sdk), { what: "deadlocked until the SDK's request limit (McpException -32001)", cell: DEADLOCK_UNTIL.sdk });
});

test("a client recorded from inside (ts1 under serial, in memory): its queue's held band, no unread band; the TS SDK's own limit", async () => {
  const run = await memoryRun("nested", "serial");
  assert.equal(unreadFrames(run.events, run.wire).size, 0);
  const svg = svgOf({ events: [...run.events], wire: [...run.wire] });
  assert.equal(bands(svg), []);
  assert.match(svg, /<g class="held-band" data-frame=/);
  // the TS SDK's timeout carries its length (McpError data.timeout), recorded by the ts1 driver
  assert.equal(said({ events: [...run.events], wire: [...run.wire] }), { what: "deadlocked until the SDK's request limit (0.5 s, error -32001)", cell: DEADLOCK_UNTIL.sdk });
});

test.run();
