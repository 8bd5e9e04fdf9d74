// Runs the form-elicitation contract (lab/check/contract.ts holds its checks): every case under
// `sdk` (its callback never calls back into the session), verified by the ordinary verifier
// and then by the contract's own checks.
import { contractChecks, contractDir, contractExpectationPath, type ContractExpectation } from "../check/contract.js";
import type { Versions } from "../peers/versions.js";
import type { Scenario } from "../plan/scenario.js";
import { contractScenario, type ContractCase } from "../../scenarios/contract/index.js";
import { runCase, type CaseOptions, type CaseReport, type RunRecord } from "./pipeline.js";

/** Runs one case over every transport and repeat, and verifies each run against its contract. */
export async function runContractCase(
  c: ContractCase,
  expectation: ContractExpectation,
  options: Omit<CaseOptions, "onDeadlock">,
  versions: Versions,
): Promise<CaseReport> {
  const file = contractExpectationPath(c.name, contractDir(options.expectedDir, options.server?.name));
  return runContractScenario(contractScenario(c), expectation, file, options, versions);
}

/** The same for any contract scenario (a calculate case or a vocabulary case) and its file. */
export async function runContractScenario(
  scenario: Scenario,
  expectation: ContractExpectation,
  expectedFile: string,
  options: Omit<CaseOptions, "onDeadlock">,
  versions: Versions,
): Promise<CaseReport> {
  const { expectedDir: _unused, ...caseOptions } = options;
  const report = await runCase(scenario, "sdk", { ...caseOptions, onDeadlock: "wait" }, versions, expectation);
  // runCase has run the ordinary verifier (with the transport's own problems); add the rest.
  const runs = report.runs.map((run): RunRecord => {
    const verdicts = [...run.verdicts, ...contractChecks(run, expectation)];
    return { ...run, verdicts, ok: verdicts.every((v) => v.ok) };
  });
  return {
    ...report,
    expectedFile,
    runs,
    ok: runs.every((r) => r.ok) && report.parity.every((p) => p.ok),
  };
}

