// One case = one scenario under one dispatch model: every transport x repeat as a fresh
// session, each verified against the same hand-written expectation.
import { loadExpectation, expectationPath, type Expectation } from "./expectations.js";
import type { DispatchModel, OnDeadlock } from "./receive-loop.js";
import type { Scenario } from "./scenario.js";
import { runSession, type SessionEvidence } from "./session.js";
import { TRANSPORTS } from "./transports.js";
import type { Versions } from "./versions.js";
import { verify, type Verdict } from "./verify.js";

export interface RunRecord extends SessionEvidence {
  negotiatedProtocol: string | null;
  verdicts: Verdict[];
  ok: boolean;
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
}

export async function runCase(
  scenario: Scenario,
  dispatch: DispatchModel,
  options: CaseOptions,
  versions: Versions,
  expectation: Expectation = loadExpectation(scenario.name, dispatch, options.onDeadlock),
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
  return {
    scenario: scenario.name,
    summary: scenario.summary,
    dispatch,
    dispatchMeaning: DISPATCH_MEANING[dispatch],
    onDeadlock: options.onDeadlock,
    versions,
    expectedFile: expectationPath(scenario.name, dispatch, options.onDeadlock),
    runs,
    ok: runs.every((r) => r.ok),
  };
}

function negotiatedProtocol(evidence: SessionEvidence): string | null {
  const request = evidence.wire.find((f) => f.from === "client" && (f.message as { method?: string }).method === "initialize");
  const id = (request?.message as { id?: unknown } | undefined)?.id;
  const reply = evidence.wire.find((f) => f.from === "server" && "result" in f.message && f.message.id === id);
  const version = (reply?.message as { result?: { protocolVersion?: unknown } } | undefined)?.result?.protocolVersion;
  return typeof version === "string" ? version : null;
}
