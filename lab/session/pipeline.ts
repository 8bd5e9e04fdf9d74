// One case = one scenario under one dispatch model: every transport x repeat as a fresh
// session, each verified against the same hand-written expectation.
import { loadExpectation, expectationPath, type Expectation } from "../check/expectations.js";
import { compareParity, PARITY_RULES, SERVER_SIDE_ALLOWANCES, type ParityResult } from "../check/parity.js";
import type { DispatchModel, OnDeadlock } from "../history/receive-loop.js";
import type { Scenario } from "./scenario.js";
import { runSession, type SessionEvidence } from "./session.js";
import type { ChildSide } from "../transports/stdio.js";
import { TRANSPORTS } from "../transports/index.js";
import type { Versions } from "../peers/versions.js";
import { verify, type Verdict } from "../check/verify.js";

export interface RunRecord extends SessionEvidence {
  negotiatedProtocol: string | null;
  verdicts: Verdict[];
  ok: boolean;
}

export interface ParityVerdict {
  repeat: number;
  ok: boolean;
  /** the expectation's reasons for the allowances the comparison needed */
  allowed: string[];
  /** client side: the parent's timeline in memory vs over stdio */
  result: ParityResult;
  /** server side: memory's server events vs what the child recorded of itself (null: it wrote none) */
  server: ParityResult | null;
}

export interface CaseReport {
  scenario: string;
  summary: string;
  dispatch: DispatchModel;
  /** says plainly what the dispatch model is */
  dispatchMeaning: string;
  onDeadlock: OnDeadlock;
  versions: Versions;
  expectedFile: string;
  runs: RunRecord[];
  /** memory vs stdio, per repeat, when both ran */
  parity: ParityVerdict[];
  ok: boolean;
}

export const DISPATCH_MEANING: Record<DispatchModel, string> = {
  sdk: "the TypeScript SDK exactly as shipped",
  serial: "a model of the MCP Python SDK 1.29.0 client receive loop (not TS SDK behaviour)",
};

export interface CaseOptions {
  transports: string[];
  repeat: number;
  onDeadlock: OnDeadlock;
  /** where expectations are read from (default expected/) */
  expectedDir?: string;
}

export async function runCase(
  scenario: Scenario,
  dispatch: DispatchModel,
  options: CaseOptions,
  versions: Versions,
  expectation: Expectation = loadExpectation(scenario.name, dispatch, options.onDeadlock, options.expectedDir),
): Promise<CaseReport> {
  const runs: RunRecord[] = [];
  for (let repeat = 1; repeat <= options.repeat; repeat++) {
    for (const name of options.transports) {
      const transport = TRANSPORTS[name];
      if (!transport) throw new Error(`unknown transport ${name}`);
      const evidence = await runSession(scenario, transport.open, name, { dispatch, onDeadlock: options.onDeadlock }, repeat);
      const errors = [...evidence.errors, ...transport.problems(evidence.transportEvidence)];
      const verdicts = verify({ events: evidence.events, wire: evidence.wire, errors }, expectation);
      runs.push({
        ...evidence,
        negotiatedProtocol: negotiatedProtocol(evidence),
        verdicts,
        ok: verdicts.every((v) => v.ok),
      });
    }
  }
  const parity = parityVerdicts(runs, expectation);
  return {
    scenario: scenario.name,
    summary: scenario.summary,
    dispatch,
    dispatchMeaning: DISPATCH_MEANING[dispatch],
    onDeadlock: options.onDeadlock,
    versions,
    expectedFile: expectationPath(scenario.name, dispatch, options.onDeadlock, options.expectedDir),
    runs,
    parity,
    ok: runs.every((r) => r.ok) && parity.every((p) => p.ok),
  };
}

/** The client-side story must be the same in memory and over a real child (lab/parity.ts). */
export function parityVerdicts(runs: RunRecord[], expectation: Expectation): ParityVerdict[] {
  const allows = expectation.parityAllows ?? [];
  const allowed = allows.flatMap((a) => PARITY_RULES[a.rule]);
  const verdicts: ParityVerdict[] = [];
  for (const memory of runs.filter((r) => r.transport === "memory")) {
    const stdio = runs.find((r) => r.transport === "stdio" && r.repeat === memory.repeat);
    if (!stdio) continue;
    const result = compareParity(memory.events, stdio.events, allowed);
    const used = allows.filter((a) => PARITY_RULES[a.rule].some((rule) => result.allowedUsed.includes(rule.reason)));
    const child = (stdio.transportEvidence as { childSide?: ChildSide | null }).childSide ?? null;
    const server = child && compareParity(memory.events, child.events, SERVER_SIDE_ALLOWANCES, "server");
    verdicts.push({
      repeat: memory.repeat,
      ok: result.ok && server !== null && server.ok,
      allowed: used.map((a) => `${a.rule}: ${a.why}`),
      result,
      server,
    });
  }
  return verdicts;
}

function negotiatedProtocol(evidence: SessionEvidence): string | null {
  const request = evidence.wire.find((f) => f.from === "client" && (f.message as { method?: string }).method === "initialize");
  const id = (request?.message as { id?: unknown } | undefined)?.id;
  const reply = evidence.wire.find((f) => f.from === "server" && "result" in f.message && f.message.id === id);
  const version = (reply?.message as { result?: { protocolVersion?: unknown } } | undefined)?.result?.protocolVersion;
  return typeof version === "string" ? version : null;
}
