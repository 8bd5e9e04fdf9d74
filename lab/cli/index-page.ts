// Writes <out>/index.html and each run's own page beside it after a run command: re-reads every
// JSON file the runs left in the folder (and notes which SVGs they name exist), checks each has
// the shape the page reads, and hands them to the pure renderers (lab/render/index-page.ts,
// run-page.ts). A file of another shape is listed as not shown, with why; it never stops the
// page or the run.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { writeAtomic } from "./output.js";
import { INDEX_FILE, renderIndexPage, type IndexInput, type PageCase } from "../render/index-page.js";
import { renderRunPages } from "../render/run-page.js";
import type { CardCell, ContractRow } from "../render/index-parts.js";
import { svgFileName } from "../render/svg.js";
import type { CaseReport } from "../session/pipeline.js";
import { SCENARIOS } from "../../scenarios/index.js";

// Only what the page reads is required; everything else passes through untouched.
const Verdict = z.object({ check: z.string(), ok: z.boolean(), details: z.array(z.string()) });
const Run = z.looseObject({
  transport: z.string(),
  repeat: z.number(),
  ok: z.boolean(),
  durationMs: z.number(),
  negotiatedProtocol: z.string().nullable(),
  errors: z.array(z.string()),
  verdicts: z.array(Verdict),
  events: z.array(z.looseObject({ kind: z.string() })),
});
const Parity = z.looseObject({ repeat: z.number(), transport: z.string(), ok: z.boolean(), allowed: z.array(z.string()) });
const Case = z.looseObject({
  scenario: z.string(),
  client: z.string(),
  server: z.string(),
  column: z.string(),
  loop: z.string(),
  loopMeaning: z.string(),
  clientSdk: z.string().optional(),
  serverSdk: z.string().optional(),
  onDeadlock: z.string(),
  expectedFile: z.string(),
  versions: z.looseObject({ sdk: z.string(), node: z.string() }),
  runs: z.array(Run),
  parity: z.array(Parity),
  ok: z.boolean(),
});
const ContractRowShape = z.looseObject({
  case: z.string(),
  transport: z.string(),
  repeat: z.number(),
  action: z.string(),
  status: z.string(),
  layer: z.string(),
  ok: z.boolean(),
});
const Contract = z.looseObject({ command: z.literal("contract"), ok: z.boolean(), cases: z.array(Case), rows: z.array(ContractRowShape).optional() });
const Cell = z.object({ row: z.string(), column: z.string(), text: z.string(), verdict: z.union([z.string(), z.boolean()]) });
const Card = z.union([z.array(Cell), z.looseObject({ cells: z.array(Cell) })]);

function problem(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `not the shape the page reads: $${issue.path.map((p) => `.${String(p)}`).join("")}: ${issue.message}`;
}

/** Scenarios in the lab's order, then sdk before serial, wait before break, then by file name. */
function order(a: PageCase, b: PageCase): number {
  const rank = (c: PageCase) => {
    const s = SCENARIOS.findIndex((x) => x.name === c.report.scenario);
    return (s < 0 ? SCENARIOS.length : s) * 10 + (c.report.loop === "sdk" ? 0 : 1) + (c.report.onDeadlock === "break" ? 2 : 0);
  };
  return rank(a) - rank(b) || a.file.localeCompare(b.file);
}

/** Everything the page shows, read from one run-output folder. */
export function readIndexInput(outDir: string): IndexInput {
  const input: IndexInput = { cases: [], skipped: [] };
  const files = existsSync(outDir) ? readdirSync(outDir).filter((f) => f.endsWith(".json")).sort() : [];
  for (const file of files) {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(join(outDir, file), "utf8"));
    } catch (error) {
      input.skipped.push({ file, reason: `not JSON (${(error as Error).message})` });
      continue;
    }
    if (file === "card.json") {
      const card = Card.safeParse(data);
      if (card.success) input.card = (Array.isArray(card.data) ? card.data : card.data.cells) as CardCell[];
      else input.skipped.push({ file, reason: problem(card.error) });
      continue;
    }
    if (file === "contract.json") {
      const contract = Contract.safeParse(data);
      if (contract.success) {
        const { ok, cases, rows } = contract.data;
        input.contract = { file, ok, cases: cases as unknown as CaseReport[], ...(rows ? { rows: rows as ContractRow[] } : {}) };
      } else input.skipped.push({ file, reason: problem(contract.error) });
      continue;
    }
    const parsed = Case.safeParse(data);
    if (!parsed.success) {
      input.skipped.push({ file, reason: problem(parsed.error) });
      continue;
    }
    const report = parsed.data as unknown as CaseReport;
    const suffix = report.onDeadlock === "break" ? ".break" : "";
    const svgs: PageCase["svgs"] = {};
    for (const run of report.runs) {
      const name = svgFileName(report.scenario, report.column, suffix, run.transport, run.repeat);
      svgs[name] = existsSync(join(outDir, name));
    }
    input.cases.push({ file, report, svgs });
  }
  input.cases.sort(order);
  return input;
}

/** Re-reads the folder and writes its index.html and every run's page. Returns the index's path. */
export function writeIndexPage(outDir: string): string {
  const input = readIndexInput(outDir);
  for (const { file, html } of renderRunPages(input)) writeAtomic(join(outDir, file), html);
  const path = join(outDir, INDEX_FILE);
  writeAtomic(path, renderIndexPage(input));
  return path;
}
