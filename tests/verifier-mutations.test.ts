// The verifier must reject real evidence once it is corrupted. Each corruption below is made
// on a copy of a real run; the uncorrupted run passes (see scenarios.test.ts).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { isDeepStrictEqual } from "node:util";
import { verify, type Evidence } from "../lab/check/verify.js";
import type { TimelineEvent } from "../lab/history/timeline.js";
import { copy, expectation, memoryRun } from "./support/runs.js";

function failedChecks(evidence: Evidence, scenario: string, loop: "sdk" | "serial"): string[] {
  return verify(evidence, expectation(scenario, loop)).filter((v) => !v.ok).map((v) => v.check);
}

function renumber(events: TimelineEvent[]): void {
  events.forEach((e, i) => (e.seq = i));
}

test("arrival of the nested reply moved after the timeout is rejected", async () => {
  const run = copy(await memoryRun("nested", "serial"));
  const arrivals = run.events.filter((e) => e.side === "client" && e.kind === "frame.arrived" && e.method === "tools/list" && e.frameType === "result");
  const arrival = arrivals[1]!;
  const failed = run.events.find((e) => e.kind === "nested.failed")!;
  run.events.splice(run.events.indexOf(arrival), 1);
  run.events.splice(run.events.indexOf(failed) + 1, 0, { ...arrival, t: failed.t });
  renumber(run.events);
  const checks = failedChecks(run, "nested", "serial");
  assert.ok(checks.includes("order: the nested reply ARRIVES before the nested timeout"), checks.join(", "));
});

test("an event moved without renumbering breaks the timeline's integrity", async () => {
  const run = copy(await memoryRun("nested", "serial"));
  const [a] = run.events.splice(10, 1);
  run.events.splice(20, 0, a!);
  assert.ok(failedChecks(run, "nested", "serial").includes("timeline is intact"));
});

for (const [label, value] of [["0", 0], ["1", 1]] as const) {
  test(`computed turned into the number ${label} is rejected (type-aware), although a loose equal accepts it`, async () => {
    const run = copy(await memoryRun("nested", "serial"));
    const result = run.events.find((e) => e.kind === "tool.result" && e.detail?.call === (value === 0 ? "first" : "recovery"))!;
    const corrupted = { ...(result.detail!.result as Record<string, unknown>), computed: value };
    result.detail!.result = corrupted;
    const checks = failedChecks(run, "nested", "serial");
    assert.ok(checks.includes("results (type-aware)"), checks.join(", "));
    // A plain loose comparison would have let this through: that is why the check is type-aware.
    const expected = expectation("nested", "serial").results[value === 0 ? "first" : "recovery"] as { computed: boolean };
    assert.ok(expected.computed == (value as unknown as boolean), "loose equality accepts 0/1 for false/true");
    assert.not.ok(isDeepStrictEqual(expected, corrupted));
  });
}

test("a result changed only on the wire is caught by the wire/timeline cross-check", async () => {
  const run = copy(await memoryRun("fixed-fixture", "sdk"));
  const reply = run.wire.filter((f) => f.from === "server" && "result" in f.message).at(-1)!;
  ((reply.message as unknown as { result: { structuredContent: { value: number } } }).result.structuredContent).value = 22;
  assert.ok(failedChecks(run, "fixed-fixture", "sdk").includes("results match the wire"));
});

test("an elicitation/create reply id changed is rejected", async () => {
  const run = copy(await memoryRun("fixed-fixture", "sdk"));
  const reply = run.wire.find((f) => f.from === "client" && "result" in f.message && (f.message as { result: { action?: string } }).result.action)!;
  (reply.message as { id: number }).id = 7;
  const checks = failedChecks(run, "fixed-fixture", "sdk");
  // The recorder stored the frame's label and the request it answers; the integrity check
  // re-derives both from the frames (lab/history/frames.ts) and sees they no longer agree.
  assert.ok(checks.includes("timeline is intact"), checks.join(", "));
});

test("a dropped frame is rejected", async () => {
  const run = copy(await memoryRun("fixed-fixture", "serial"));
  const i = run.wire.findIndex((f) => (f.message as { method?: string }).method === "elicitation/create");
  run.wire.splice(i, 1);
  const checks = failedChecks(run, "fixed-fixture", "serial");
  assert.ok(checks.length >= 2, checks.join(", "));
  assert.ok(checks.includes("frames on the wire"));
});

test("a cancel turned into an accept in the callback record is rejected", async () => {
  const run = copy(await memoryRun("nested", "serial"));
  const left = run.events.find((e) => e.kind === "callback.left" && e.detail?.call === "first")!;
  left.detail!.action = "accept";
  assert.ok(failedChecks(run, "nested", "serial").includes("callback answers"));
});

test("a nested error code changed from -32001 to 408 (Python's code) is rejected", async () => {
  const run = copy(await memoryRun("nested", "serial"));
  const failed = run.events.find((e) => e.kind === "nested.failed")!;
  failed.detail!.code = 408;
  assert.ok(failedChecks(run, "nested", "serial").includes("nested requests"));
});

/** Moves every event of callback n (entered .. left) by `shift` ms, then re-sorts the timeline. */
function moveCallback(events: TimelineEvent[], n: number, shift: number): TimelineEvent[] {
  const moved = events.map((e) => (e.kind.startsWith("callback.") && e.detail?.n === n ? { ...e, t: e.t + shift } : e));
  return moved.sort((a, b) => a.t - b.t || a.seq - b.seq).map((e, i) => ({ ...e, seq: i }));
}

const timingCheck = (checks: string[]) => checks.filter((c) => c.startsWith("timing: "));

test("serial fan-out: callbacks squeezed to overlap fail 'at least their sum' (and the one-at-a-time order)", async () => {
  const run = copy(await memoryRun("fan-out", "serial"));
  // every callback's events slid back so that all 8 share the first one's time span
  const entered = run.events.filter((e) => e.kind === "callback.entered" && e.detail?.call === "first");
  const first = entered[0]!.t;
  let events = run.events;
  for (const e of entered.slice(1)) events = moveCallback(events, e.detail!.n as number, first - e.t + 1);
  run.events = events;
  const checks = failedChecks(run, "fan-out", "serial");
  assert.equal(timingCheck(checks).length, 1, checks.join(", "));
  assert.ok(checks.includes("order: callback 2 is entered only after callback 1 answered: one at a time"), checks.join(", "));
});

test("sdk fan-out: callbacks spread one after another fail 'less than their sum'", async () => {
  const run = copy(await memoryRun("fan-out", "sdk"));
  // each callback k starts where callback k-1 ended: no overlap any more, nothing else changed
  const spans = run.events.filter((e) => e.kind === "callback.entered" && e.detail?.call === "first");
  let events = run.events;
  let end = 0;
  for (const e of spans) {
    const n = e.detail!.n as number;
    const left = events.find((x) => x.kind === "callback.left" && x.detail?.n === n)!;
    const start = events.find((x) => x.kind === "callback.entered" && x.detail?.n === n)!;
    const shift = Math.max(0, end - start.t);
    events = moveCallback(events, n, shift);
    end = left.t + shift + 0.001;
  }
  // keep the overlap order rule out of it: only the timing claim is under test here
  const verdicts = verify({ ...run, events }, expectation("fan-out", "sdk"));
  const timing = verdicts.filter((v) => v.check.startsWith("timing: "));
  assert.equal(timing.map((v) => v.ok), [false], JSON.stringify(timing));
  assert.match(timing[0]!.details[0]!, "expected less than their sum");
});

for (const loop of ["sdk", "serial"] as const) {
  test(`liveness under ${loop}: the ping reply and the callback's answer swapped on the wire is rejected`, async () => {
    const run = copy(await memoryRun("liveness", loop));
    const isSent = (method: string) => (e: TimelineEvent) => e.kind === "frame.sent" && e.side === "client" && e.method === method && e.frameType === "result";
    const a = run.events.findIndex(isSent("ping"));
    const b = run.events.findIndex(isSent("elicitation/create"));
    const [ta, tb] = [run.events[a]!.t, run.events[b]!.t];
    [run.events[a], run.events[b]] = [{ ...run.events[b]!, t: ta }, { ...run.events[a]!, t: tb }];
    renumber(run.events);
    const checks = failedChecks(run, "liveness", loop);
    assert.ok(checks.some((c) => c.startsWith("order: on the wire, the client's ping reply")), checks.join(", "));
  });
}

test("an sdk run relabelled as serial is rejected by the serial expectation", async () => {
  const run = copy(await memoryRun("nested", "sdk"));
  assert.ok(failedChecks(run, "nested", "serial").length >= 5);
});

test.run();
