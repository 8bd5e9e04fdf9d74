// The contract verifier checks itself: real evidence from every case (run once in memory) is
// corrupted in six ways, and every corruption must be rejected. No server is involved after the
// runs: this replays evidence. It also shows why the comparison is type-aware: node:assert's
// legacy loose deepEqual accepts computed 0/1 for false/true.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { deepEqual } from "node:assert";
import { loadContractExpectation, verifyContract } from "../lab/check/contract.js";
import { type SessionEvidence } from "../lab/plan/session.js";
import type { TimelineEvent, WireFrame } from "../lab/history/timeline.js";
import { copy } from "./support/runs.js";
import { CASE_NAMES, contractRun } from "./support/contract-runs.js";

type Result = Record<string, unknown>;
/** Corrupts a copy of the evidence in place; returns false where the corruption does not apply. */
type Corruption = (run: SessionEvidence, name: string) => boolean;

const toolResult = (run: SessionEvidence) => run.events.find((e) => e.kind === "tool.result")!.detail!.result as Result;
const method = (f: WireFrame) => (f.message as { method?: string }).method;
const id = (f: WireFrame) => (f.message as { id?: unknown }).id;

const CORRUPTIONS: Record<string, Corruption> = {
  "computed flipped": (run) => {
    const result = toolResult(run);
    result.computed = !result.computed;
    return true;
  },
  "computed as 0/1": (run) => {
    const result = toolResult(run);
    result.computed = Number(result.computed);
    return true;
  },
  "status changed": (run) => {
    const result = toolResult(run);
    result.status = result.status === "calculated" ? "declined" : "calculated";
    return true;
  },
  "elicitation/create reply id changed": (run) => {
    const request = run.wire.find((f) => f.from === "server" && method(f) === "elicitation/create");
    const reply = request && run.wire.find((f) => f.from === "client" && method(f) === undefined && id(f) === id(request));
    if (!reply) return false;
    (reply.message as { id: number }).id = Number(id(reply)) + 100;
    return true;
  },
  "frame dropped": (run) => {
    // the elicitation/create where there is one, else the reply to tools/call; the rest is
    // renumbered (frames, and the events that point at them) so the timeline still looks intact
    const call = run.wire.find((f) => f.from === "client" && method(f) === "tools/call")!;
    const i = run.wire.findIndex((f) => f.from === "server" && method(f) === "elicitation/create");
    const drop = i >= 0 ? i : run.wire.findIndex((f) => f.from === "server" && method(f) === undefined && id(f) === id(call));
    run.wire.splice(drop, 1);
    run.wire.forEach((f, n) => (f.index = n));
    run.events = run.events
      .filter((e) => e.frame !== drop)
      .map((e) => (e.frame !== undefined && e.frame > drop ? { ...e, frame: e.frame - 1 } : e));
    run.events.forEach((e, n) => (e.seq = n));
    return true;
  },
  "two events swapped": (run) => {
    // the call's start and its result change places; sequence numbers are renumbered to match
    const a = run.events.findIndex((e) => e.kind === "call.started");
    const b = run.events.findIndex((e) => e.kind === "tool.result");
    [run.events[a], run.events[b]] = [run.events[b]!, run.events[a]!];
    run.events.forEach((e: TimelineEvent, i) => (e.seq = i));
    return true;
  },
};

test("every corruption of real contract evidence is rejected", async () => {
  const survivors: string[] = [];
  const counts: Record<string, number> = {};
  let made = 0;
  for (const name of CASE_NAMES) {
    const real = await contractRun(name);
    const expected = loadContractExpectation(name);
    assert.ok(verifyContract(real, expected).every((v) => v.ok), `${name}: the real evidence passes`);
    for (const [label, corrupt] of Object.entries(CORRUPTIONS)) {
      const run = copy(real);
      if (!corrupt(run, name)) continue;
      made++;
      if (verifyContract(run, expected).every((v) => v.ok)) survivors.push(`${name}: ${label}`);
      else counts[label] = (counts[label] ?? 0) + 1;
    }
  }
  const rejected = made - survivors.length;
  console.log(`\n  contract mutations: ${rejected}/${made} corruptions rejected ${JSON.stringify(counts)}`);
  assert.ok(made >= CASE_NAMES.length * 5, `${made} corruptions made`);
  assert.equal(survivors, [], `corruptions that went unnoticed: ${survivors.join(", ")}`);
});

test("computed as 0/1 fails the type-aware results check, although a loose deepEqual accepts it", async () => {
  let looseAccepted = 0;
  for (const name of CASE_NAMES) {
    const run = copy(await contractRun(name));
    CORRUPTIONS["computed as 0/1"]!(run, name);
    const expected = loadContractExpectation(name);
    const failed = verifyContract(run, expected).filter((v) => !v.ok).map((v) => v.check);
    assert.ok(failed.includes("results (type-aware)"), `${name}: ${failed.join(", ")}`);
    // node:assert's legacy deepEqual compares primitives with ==, so 1 == true and 0 == false.
    deepEqual(toolResult(run), expected.results[name]);
    looseAccepted++;
  }
  console.log(`  loose deepEqual accepted the 0/1 corruption in ${looseAccepted}/${CASE_NAMES.length} cases`);
  assert.is(looseAccepted, CASE_NAMES.length);
});

test.run();
