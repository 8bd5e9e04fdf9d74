// Real contract runs shared by the test files: each case once in memory under sdk, made on first use.
import { openMemoryTransport } from "../../lab/transports/memory.js";
import { runSession } from "../../lab/session/session.js";
import { type SessionEvidence } from "../../lab/plan/session.js";
import { CONTRACT_CASES, contractScenario, findContractCase } from "../../scenarios/contract/index.js";

const cache = new Map<string, Promise<SessionEvidence>>();

export function contractRun(name: string): Promise<SessionEvidence> {
  let run = cache.get(name);
  if (!run) {
    const found = findContractCase(name);
    if (!found) throw new Error(`no contract case ${name}`);
    run = runSession(contractScenario(found), openMemoryTransport, "memory", { loop: "sdk" });
    cache.set(name, run);
  }
  return run;
}

export const CASE_NAMES = CONTRACT_CASES.map((c) => c.name);
