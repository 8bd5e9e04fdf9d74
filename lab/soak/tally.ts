// Counting a soak: per case, transport and check, how often it was checked and how often it
// failed. A session is one unit, a parity comparison (memory against another transport) another.
import type { CaseReport } from "../session/pipeline.js";

export interface Count {
  checked: number;
  failed: number;
}

/** "<case> · <transport>" -> check name -> count */
export type Tally = Map<string, Map<string, Count>>;

function bump(tally: Tally, where: string, check: string, ok: boolean): void {
  let checks = tally.get(where);
  if (!checks) tally.set(where, (checks = new Map()));
  const count = checks.get(check) ?? { checked: 0, failed: 0 };
  count.checked++;
  if (!ok) count.failed++;
  checks.set(check, count);
}

/** Adds one case report; returns how many units (sessions, parity comparisons) passed and failed. */
export function tally(counts: Tally, caseName: string, report: CaseReport): { passed: number; failed: number } {
  let passed = 0;
  let failed = 0;
  for (const run of report.runs) {
    for (const v of run.verdicts) bump(counts, `${caseName} · ${run.transport}`, v.check, v.ok);
    if (run.ok) passed++;
    else failed++;
  }
  for (const p of report.parity) {
    bump(counts, `${caseName} · memory vs ${p.transport}`, "parity: client side", p.result.ok);
    bump(counts, `${caseName} · memory vs ${p.transport}`, "parity: server side", p.server?.ok ?? false);
    if (p.ok) passed++;
    else failed++;
  }
  return { passed, failed };
}

/** The per-check failure counts, worst first; one line when nothing failed. */
export function tallyLines(counts: Tally): string[] {
  const rows: { where: string; check: string; count: Count }[] = [];
  let checks = 0;
  let checked = 0;
  for (const [where, byCheck] of counts) {
    for (const [check, count] of byCheck) {
      checks++;
      checked += count.checked;
      if (count.failed) rows.push({ where, check, count });
    }
  }
  if (rows.length === 0) return [`per check: every one of ${checks} checks held every time (${checked} verdicts)`];
  rows.sort((a, b) => b.count.failed - a.count.failed || a.where.localeCompare(b.where));
  const width = Math.max(...rows.map((r) => r.where.length));
  return [
    `per check: ${rows.length} of ${checks} checks failed at least once (failed/checked)`,
    ...rows.map((r) => `  ${`${r.count.failed}/${r.count.checked}`.padStart(7)}  ${r.where.padEnd(width)}  ${r.check}`),
  ];
}
