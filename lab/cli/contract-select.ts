// What `contract` runs: the names given (cases, `<kind>.<what>`, or groups: `calculate`,
// `vocabulary`, a kind name), or by default every group the server has expectation files for.
// Every expectation is read here, before anything runs: a malformed or missing file is one line.
import { existsSync } from "node:fs";
import { UsageError } from "./args.js";
import { ExpectationError } from "../check/expectations.js";
import { contractDir, contractExpectationPath, loadContractExpectation, type ContractExpectation } from "../check/contract.js";
import { kindsWritten, loadVocabularyFile, vocabularyDir, vocabularyExpectation, vocabularyPath } from "../check/vocabulary.js";
import { findVocabularyCase, VOCABULARY_CASES } from "../plan/vocabulary.js";
import type { Scenario } from "../plan/scenario.js";
import { CONTRACT_CASES, contractScenario, findContractCase } from "../../scenarios/contract/index.js";
import { casesOfKind, KIND_NAMES, VOCABULARY_GROUP, vocabularyScenario } from "../../scenarios/contract/vocabulary.js";

export const CALCULATE_GROUP = "calculate";

export interface ContractWork {
  scenario: Scenario;
  expectation: ContractExpectation;
  expectedFile: string;
}

/** Case names in the order given; a group stands for its cases. Unknown names: undefined. */
function expand(token: string): string[] | undefined {
  if (token === CALCULATE_GROUP) return CONTRACT_CASES.map((c) => c.name);
  if (token === VOCABULARY_GROUP) return VOCABULARY_CASES.map((v) => v.name);
  if (KIND_NAMES.includes(token)) return casesOfKind(token).map((v) => v.name);
  if (findContractCase(token) || findVocabularyCase(token)) return [token];
  return undefined;
}

/** The default: each group this server has files for, and one line naming what was skipped. */
function defaultNames(server: string, expectedDir: string | undefined): { names: string[]; skipped?: string } {
  const calculateDir = contractDir(expectedDir, server);
  const hasCalculate = CONTRACT_CASES.some((c) => existsSync(contractExpectationPath(c.name, calculateDir)));
  const kinds = kindsWritten(expectedDir, server);
  const strays = kinds.filter((k) => !KIND_NAMES.includes(k));
  if (strays.length) throw new ExpectationError(`${vocabularyDir(expectedDir, server)}: ${strays.map((k) => `${k}.json`).join(", ")} names no kind in lab/plan/vocabulary.ts`);
  const missingKinds = KIND_NAMES.filter((k) => !kinds.includes(k));
  const names = [...(hasCalculate ? expand(CALCULATE_GROUP)! : []), ...KIND_NAMES.filter((k) => kinds.includes(k)).flatMap((k) => expand(k)!)];
  if (names.length === 0) throw new UsageError(`no contract expectations written for server ${server} (looked in ${calculateDir})`);
  const skipped = [
    ...(hasCalculate ? [] : [`${CALCULATE_GROUP} (no <case>.json in ${calculateDir})`]),
    ...(missingKinds.length === 0
      ? []
      : missingKinds.length === KIND_NAMES.length
        ? [`${VOCABULARY_GROUP} (no <kind>.json in ${vocabularyDir(expectedDir, server)})`]
        : [`${VOCABULARY_GROUP} kinds ${missingKinds.join(", ")} (no file in ${vocabularyDir(expectedDir, server)})`]),
  ];
  return { names, ...(skipped.length && { skipped: `skipped for server ${server}: ${skipped.join("; ")}` }) };
}

/** client: the vocabulary cases run with another client peer's files (vocabulary-<client>/); the calculate cases are ts1's only. */
export function selectContractWork(named: string | undefined, server: string, expectedDir: string | undefined, client = "ts1"): { work: ContractWork[]; skipped?: string } {
  let names: string[];
  let skipped: string | undefined;
  if (named === undefined) ({ names, skipped } = defaultNames(server, expectedDir));
  else {
    const tokens = named.split(",").filter(Boolean);
    const unknown = tokens.filter((t) => expand(t) === undefined);
    if (unknown.length > 0 || tokens.length === 0) {
      throw new UsageError(
        `unknown case '${unknown.join(", ") || named}'. Valid: ${CALCULATE_GROUP}, ${VOCABULARY_GROUP}, a kind (${KIND_NAMES.join(", ")}), <kind>.<what>, or a case (${CONTRACT_CASES.map((c) => c.name).join(", ")})`,
      );
    }
    names = [...new Set(tokens.flatMap((t) => expand(t)!))];
  }
  const files = new Map<string, ReturnType<typeof loadVocabularyFile>>();
  const work = names.map((name): ContractWork => {
    const c = findContractCase(name);
    if (c && client !== "ts1") throw new UsageError(`contract case ${name} is written for the ts1 client only, not ${client}`);
    if (c) {
      const dir = contractDir(expectedDir, server);
      return { scenario: contractScenario(c), expectation: loadContractExpectation(name, dir, server), expectedFile: contractExpectationPath(name, dir) };
    }
    const v = findVocabularyCase(name)!;
    if (!files.has(v.kind)) files.set(v.kind, loadVocabularyFile(v.kind, expectedDir, server, client));
    return { scenario: vocabularyScenario(v), expectation: vocabularyExpectation(files.get(v.kind)!, v), expectedFile: vocabularyPath(v.kind, expectedDir, server, client) };
  });
  return { work, ...(skipped !== undefined && { skipped }) };
}
