// Real runs shared by the test files: each scenario x model once in memory, made on first use.
import "./child-pids.js";
import { loadExpectation, type Expectation } from "../../lab/check/expectations.js";
import { openMemoryTransport } from "../../lab/transports/memory.js";
import type { LoopModel, OnDeadlock } from "../../lab/history/receive-loop.js";
import { runSession } from "../../lab/session/session.js";
import { type SessionEvidence } from "../../lab/plan/session.js";
import { findScenario } from "../../scenarios/index.js";

const cache = new Map<string, Promise<SessionEvidence>>();

export function memoryRun(scenario: string, loop: LoopModel, onDeadlock: OnDeadlock = "wait"): Promise<SessionEvidence> {
  const key = `${scenario}.${loop}.${onDeadlock}`;
  let run = cache.get(key);
  if (!run) {
    const found = findScenario(scenario);
    if (!found) throw new Error(`no scenario ${scenario}`);
    run = runSession(found, openMemoryTransport, "memory", { loop, onDeadlock });
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
