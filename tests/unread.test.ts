// A reply left unread on the pipe of a client in another process (issue 41, item 6), from real runs:
// py1 (mcp 1.29.0), whose read of the nested reply is known from its SDK's late-reply report (the
// message handler's unknown-id note), and kotlin-0.14, whose driver records its own read of each
// frame. The SVG draws the wait as an amber band with its length from the evidence; a corrupted copy
// that moves the read changes the band, or removes it when the reply was read before the callback
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

test("a client recorded from inside (ts1 under serial, in memory): its queue's held band, no unread band", async () => {
  const run = await memoryRun("nested", "serial");
  assert.equal(unreadFrames(run.events, run.wire).size, 0);
  const svg = svgOf({ events: [...run.events], wire: [...run.wire] });
  assert.equal(bands(svg), []);
  assert.match(svg, /<g class="held-band" data-frame=/);
});

test.run();
