// Real runs shared by the test files: each scenario x model once in memory. A file that reads them
// all runs them all when its tests begin (startAllMemoryRuns), a few at a time: most of a run is
// waiting on its limits, and one after another cost a group of test files ~10 s of idle time.
import "./child-pids.js";
import { loadExpectation, type Expectation } from "../../lab/check/expectations.js";
import { openMemoryTransport } from "../../lab/transports/memory.js";
import type { LoopModel, OnDeadlock } from "../../lab/history/receive-loop.js";
import { runSession } from "../../lab/session/session.js";
import { type SessionEvidence } from "../../lab/plan/session.js";
import { LOOP_MODELS } from "../../lab/history/receive-loop.js";
import { findScenario, SCENARIOS } from "../../scenarios/index.js";
import { sharedRuns } from "./shared-runs.js";

/** Four at once: runs side by side share this process's event loop, where the in-process servers keep their timers. */
const runs = sharedRuns<SessionEvidence>(4);

/** For a file that reads every scenario x model: all of them run, a few at a time, before its tests. */
export function startAllMemoryRuns(): Promise<void> {
  for (const { name } of SCENARIOS) for (const loop of LOOP_MODELS) void memoryRun(name, loop);
  return runs.settled();
}

export function memoryRun(scenario: string, loop: LoopModel, onDeadlock: OnDeadlock = "wait"): Promise<SessionEvidence> {
  return runs.get(`${scenario}.${loop}.${onDeadlock}`, async () => {
    const found = findScenario(scenario);
    if (!found) throw new Error(`no scenario ${scenario}`);
    return runSession(found, openMemoryTransport, "memory", { loop, onDeadlock });
  });
}

export function expectation(scenario: string, loop: LoopModel, onDeadlock: OnDeadlock = "wait"): Expectation {
  return loadExpectation(scenario, loop, onDeadlock);
}

/** A deep copy to corrupt, so the shared real evidence stays as it was recorded. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}
