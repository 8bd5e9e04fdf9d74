// tsx lab/run.ts mutate DIR: shows that every value of every hand-written file the stored runs
// used matters. It reads what earlier commands kept in DIR (a store root or one invocation: case
// reports with their timelines and wire, card.json with its cells), changes one value of each
// expected file at a time, and checks the changed file fails against the same real evidence (a
// parse error counts as refused). No run is repeated. Exit 0 when no change went unnoticed.
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { basename, isAbsolute, join, relative, sep } from "node:path";
import { cardDifferences, cardKey, CARD_EXPECTED_DIR, connectDifferences, ExpectedCard } from "../check/card-expected.js";
import type { CellValue } from "../check/card-cell.js";
import type { RowId } from "../check/card.js";
import { ExpectationError, parseExpectation } from "../check/expectations.js";
import { ContractExpectation, verifyContract } from "../check/contract.js";
import { checkVocabularyFile, vocabularyExpectation, VocabularyFile } from "../check/vocabulary.js";
import { findVocabularyCase } from "../plan/vocabulary.js";
import { leafPaths, mutated, survivingChanges, type Json } from "../check/mutations.js";
import { verify } from "../check/verify.js";
import { evidenceOf } from "../check/evidence-of.js";
import type { SessionEvidence } from "../plan/session.js";
import { PROJECT_ROOT } from "../paths.js";
import { UsageError, type Parsed } from "./args.js";
import { LATEST } from "./store.js";

export interface MutationResult {
  file: string;
  runs: number;
  checked: number;
  survivors: string[];
  /** the unchanged file already fails one of its runs: nothing can be shown with it */
  unchangedFails?: string;
}

/** Every JSON file under dir, the store's `latest` link left out (it points at a folder listed anyway). */
function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink() || name === LATEST) return [];
    if (stat.isDirectory()) return jsonFiles(path);
    return name.endsWith(".json") ? [path] : [];
  });
}

const readJson = (file: string): unknown => {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
};

interface CaseReportLike {
  expectedFile: string;
  runs: (SessionEvidence & { ok: boolean })[];
}
const isCaseReport = (d: unknown): d is CaseReportLike =>
  typeof d === "object" && d !== null && typeof (d as CaseReportLike).expectedFile === "string" && Array.isArray((d as CaseReportLike).runs);

/** Does this text of `file`, read as its kind of expectation, fail against the run? (Throws when it does not parse.) */
function fails(file: string, text: string, run: SessionEvidence): boolean {
  const evidence = evidenceOf(run);
  const bad = (verdicts: { ok: boolean }[]) => verdicts.some((v) => !v.ok);
  if (file.includes(`${sep}contract${sep}`) && file.includes(`${sep}vocabulary${sep}`)) {
    // a vocabulary file holds every case of its kind: the run's case is read out of it
    const doc = checkVocabularyFile(parseExpectation(text, file, VocabularyFile), file, basename(file, ".json"), run.server);
    const v = findVocabularyCase(run.scenario);
    if (!v) throw new ExpectationError(`${file}: no vocabulary case ${run.scenario}`);
    return bad(verifyContract(evidence, vocabularyExpectation(doc, v)));
  }
  if (file.includes(`${sep}contract${sep}`)) return bad(verifyContract(evidence, parseExpectation(text, file, ContractExpectation)));
  return bad(verify(evidence, parseExpectation(text, file)));
}

/** Each expectation (scenario, contract or vocabulary file) against every stored run that used it. */
export function mutateExpectations(runsByFile: Map<string, SessionEvidence[]>): MutationResult[] {
  return [...runsByFile].map(([file, runs]) => {
    const text = readFileSync(file, "utf8");
    let bad: SessionEvidence | undefined;
    try {
      bad = runs.find((run) => fails(file, text, run));
    } catch (error) {
      return { file, runs: runs.length, checked: 0, survivors: [], unchangedFails: error instanceof Error ? error.message.split("\n")[0]! : String(error) };
    }
    if (bad) return { file, runs: runs.length, checked: 0, survivors: [], unchangedFails: `${bad.client} -> ${bad.server} over ${bad.transport} #${bad.repeat}` };
    const { checked, survivors } = survivingChanges(JSON.parse(text) as Json, (changed) => {
      try {
        return runs.some((run) => fails(file, changed, run));
      } catch (error) {
        return error instanceof ExpectationError;
      }
    });
    return { file, runs: runs.length, checked, survivors };
  });
}

interface CardColumnLike {
  key: string;
  cells: Partial<Record<RowId, CellValue>>;
  differs: unknown[];
  /** the pairing's session errors, which a card's connectFails is checked against */
  errors?: string[];
}

/** Each hand-written card against the cells of its stored, passing column. */
export function mutateCards(columns: CardColumnLike[], cardDir: string): MutationResult[] {
  return columns
    .filter((c) => c.differs.length === 0 && existsSync(join(cardDir, `${c.key}.json`)))
    .map((c) => {
      const file = join(cardDir, `${c.key}.json`);
      const doc = JSON.parse(readFileSync(file, "utf8")) as Json;
      // a card's identity (client, loop, server) names its file; its claims are the cells
      const paths = leafPaths(doc).filter((p) => p[0] === "cells" || p[0] === "connectFails");
      const survivors = paths
        .filter((path) => {
          try {
            const card = parseExpectation(JSON.stringify(mutated(doc, path)), file, ExpectedCard);
            const found = card.connectFails !== undefined ? connectDifferences(card, c.errors ?? []) : cardDifferences(card, c.cells);
            return cardKey(card) === c.key && found.length === 0;
          } catch (error) {
            return !(error instanceof ExpectationError);
          }
        })
        .map((p) => p.join("."));
      return { file, runs: 1, checked: paths.length, survivors };
    });
}

export function mutateStore(dir: string, cardDir = CARD_EXPECTED_DIR): MutationResult[] {
  const runsByFile = new Map<string, SessionEvidence[]>();
  const columns: CardColumnLike[] = [];
  for (const file of jsonFiles(dir)) {
    const doc = readJson(file);
    // a case report, or the contract's file of case reports
    const reports = isCaseReport(doc) ? [doc] : Array.isArray((doc as { cases?: unknown })?.cases) ? (doc as { cases: unknown[] }).cases.filter(isCaseReport) : [];
    for (const report of reports) {
      const expected = isAbsolute(report.expectedFile) ? report.expectedFile : join(PROJECT_ROOT, report.expectedFile);
      if (existsSync(expected)) runsByFile.set(expected, [...(runsByFile.get(expected) ?? []), ...report.runs]);
    }
    if (reports.length === 0 && file.endsWith("card.json") && Array.isArray((doc as { columns?: unknown }).columns)) {
      columns.push(...(doc as { columns: CardColumnLike[] }).columns);
    }
  }
  // one column per card: the newest stored card of each pairing is enough
  const byKey = new Map(columns.map((c) => [c.key, c]));
  return [...mutateExpectations(runsByFile), ...mutateCards([...byKey.values()], cardDir)];
}

export async function main(args: Parsed): Promise<number> {
  const dir = args.positionals[0]!;
  if (!existsSync(dir) || !lstatSync(dir).isDirectory()) throw new UsageError(`mutate: ${dir} is not a folder`);
  const results = mutateStore(dir);
  const name = (f: string) => relative(PROJECT_ROOT, f);
  for (const r of results) {
    const state = r.unchangedFails ? `UNCHANGED FILE FAILS (${r.unchangedFails})` : r.survivors.length ? `UNNOTICED: ${r.survivors.join(", ")}` : "every change noticed";
    console.log(`${name(r.file)}: ${r.checked} values against ${r.runs} run(s): ${state}`);
  }
  const bad = results.filter((r) => r.unchangedFails || r.survivors.length);
  const values = results.reduce((n, r) => n + r.checked, 0);
  console.log(`mutate: ${results.length} hand-written files, ${values} values changed one at a time; ${bad.length} with a change that went unnoticed or a file that fails as written`);
  // named again last: a log read from its tail (CI prints the last lines) shows which files
  for (const r of bad) console.log(`  ${name(r.file)}: ${r.unchangedFails ? `fails as written (${r.unchangedFails})` : `unnoticed: ${r.survivors.join(", ")}`}`);
  if (results.length === 0) console.error(`mutate: no stored case report or card in ${dir}`);
  return results.length > 0 && bad.length === 0 ? 0 : 1;
}
