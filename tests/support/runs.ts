// Real runs shared by the test files: each scenario x model once in memory. A file that reads them
// all starts them all when its tests begin (startAllMemoryRuns), a few at a time (most of a run is waiting on its limits: one after
// another cost a group of test files ~10 s of idle time). Only a few: runs side by side share this
// process's event loop, where the in-process servers keep their timers.
import "./child-pids.js";
import { loadExpectation, type Expectation } from "../../lab/check/expectations.js";
import { openMemoryTransport } from "../../lab/transports/memory.js";
import type { LoopModel, OnDeadlock } from "../../lab/history/receive-loop.js";
import { runSession } from "../../lab/session/session.js";
import { type SessionEvidence } from "../../lab/plan/session.js";
import { LOOP_MODELS } from "../../lab/history/receive-loop.js";
import { findScenario, SCENARIOS } from "../../scenarios/index.js";
import { slots } from "../../lab/session/slots.js";

const cache = new Map<string, Promise<SessionEvidence>>();
const slot = slots(4);

/** For a file that reads every scenario x model: all of them run, a few at a time, before its tests
 *  (a test's own synchronous work, a loop of mutations say, must not hold up their timers). */
export async function startAllMemoryRuns(): Promise<void> {
  const all: Promise<unknown>[] = [];
  for (const { name } of SCENARIOS)
    for (const loop of LOOP_MODELS) {
      // a failure is the test's to report, when that test awaits it
      all.push(start(name, loop, "wait").catch(() => undefined));
    }
  await Promise.all(all);
}

export function memoryRun(scenario: string, loop: LoopModel, onDeadlock: OnDeadlock = "wait"): Promise<SessionEvidence> {
  return start(scenario, loop, onDeadlock);
}

function start(scenario: string, loop: LoopModel, onDeadlock: OnDeadlock): Promise<SessionEvidence> {
  const key = `${scenario}.${loop}.${onDeadlock}`;
  let run = cache.get(key);
  if (!run) {
    const found = findScenario(scenario);
    if (!found) throw new Error(`no scenario ${scenario}`);
    run = slot(() => runSession(found, openMemoryTransport, "memory", { loop, onDeadlock }));
    cache.set(key, run);
  }
  return run;
}

export function expectation(scenario: string, loop: LoopModel, onDeadlock: OnDeadlock = "wait"): Expectation {
  return loadExpectation(scenario, loop, onDeadlock);
}

/** A deep copy to corrupt, so the shared real evidence stays as it was recorded. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}
