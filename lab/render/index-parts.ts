// Pieces of run-output/index.html: outcome words, verdict and parity lists, the contract table
// and the report card. Every evidence text goes through esc(); outcomes are words, not colours.
import type { CaseReport, ParityVerdict } from "../session/pipeline.js";
import { type ParityResult } from "../check/parity.js";
import type { Verdict } from "../check/verify.js";
import { type PageRun } from "./page-run.js";
import { esc } from "./svg.js";

/** One row of contract.json's `rows` (lab/cli/contract.ts writes them; contractRow makes them). */
export interface ContractRow {
  case: string;
  transport: string;
  repeat: number;
  action: string;
  status: string;
  computed?: unknown;
  value?: unknown;
  layer: string;
  ok: boolean;
}

/** One cell of card.json: a row, a column, what it says, and its verdict. */
export interface CardCell {
  row: string;
  column: string;
  text: string;
  verdict: string | boolean;
}

export function outcomeWord(ok: boolean): string {
  return ok
    ? `<span class="outcome pass"><span aria-hidden="true">✔ </span>PASS</span>`
    : `<span class="outcome fail"><span aria-hidden="true">✘ </span>FAIL</span>`;
}

export function verdictList(verdicts: Verdict[]): string {
  const items = verdicts.map(
    (v) =>
      `<li class="${v.ok ? "ok" : "bad"}">${outcomeWord(v.ok)} <span class="check">${esc(v.check)}</span>${
        v.details.length ? `<pre>${esc(v.details.join("\n"))}</pre>` : ""
      }</li>`,
  );
  return `<ul class="verdicts">${items.join("")}</ul>`;
}

function side(name: string, r: ParityResult | null): string {
  if (r === null) return `${name} side: the child wrote no events`;
  const where = r.firstDifference ? `; first difference: ${JSON.stringify(r.firstDifference)}` : "";
  return `${name} side ${r.ok ? "agrees" : "differs"} (${r.memoryCount} vs ${r.otherCount} events)${where}`;
}

export function parityList(parity: ParityVerdict[]): string {
  const items = parity.map((p) => {
    const allowed = p.allowed.map((a) => `allowed: ${a}`);
    const text = [side("client", p.result), side("server", p.server), ...allowed].join("\n");
    return `<li class="${p.ok ? "ok" : "bad"}">${outcomeWord(p.ok)} <span class="check">memory vs ${esc(p.transport)}, repeat ${p.repeat}</span><pre>${esc(text)}</pre></li>`;
  });
  return `<ul class="verdicts">${items.join("")}</ul>`;
}

const show = (value: unknown) => (value === undefined ? "-" : JSON.stringify(value));

/** The contract table (one row per case and transport) and each contract run below it. */
export function contractSection(
  contract: { file: string; ok: boolean; cases: CaseReport[]; rows?: ContractRow[] },
  runs: PageRun[],
  runItem: (r: PageRun) => string,
): string {
  const idOf = (name: string, transport: string, repeat: number) =>
    runs.find((r) => r.report.scenario === name && r.transport === transport && r.repeat === repeat);
  const rows = contract.rows
    ? contract.rows.map((row) => ({ row, run: idOf(row.case, row.transport, row.repeat) }))
    : runs.map((run) => ({ row: undefined, run }));
  const body = rows.map(({ row, run }) => {
    const name = row?.case ?? run?.report.scenario ?? "?";
    const ok = run ? run.ok : row!.ok;
    const link = run ? `<a href="${esc(run.page)}">${esc(name)}</a>` : esc(name);
    const cells = row
      ? [row.transport, String(row.repeat), row.action, row.status, show(row.computed), show(row.value), row.layer]
      : [run!.transport, String(run!.repeat), "-", "-", "-", "-", "-"];
    return `<tr><th scope="row">${link}</th>${cells.map((c) => `<td>${esc(c)}</td>`).join("")}<td>${outcomeWord(ok)}</td></tr>`;
  });
  const head = ["case", "transport", "repeat", "callback answers", "status", "computed", "value", "refused by", "outcome"];
  const failed = runs.filter((r) => !r.ok).length;
  return `<section aria-labelledby="contract-h"><h2 id="contract-h">Form-elicitation contract (${runs.length} runs, ${failed} failed)</h2>
<p>From <code>${esc(contract.file)}</code>. Every case runs under <code>sdk</code>: its callback never calls back into the session.${
    contract.rows ? "" : " This contract.json has no table rows (written before the page existed): run the contract again for them."
  }</p>
<div class="scroll" tabindex="0" role="region" aria-label="contract table"><table class="contract"><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead><tbody>${body.join("")}</tbody></table></div>
<h3>Contract runs</h3>
<ol class="runs">${runs.map(runItem).join("\n")}</ol>
</section>`;
}

function verdictText(verdict: string | boolean): string {
  if (verdict === true) return outcomeWord(true);
  if (verdict === false) return outcomeWord(false);
  if (/^(pass|ok)$/i.test(verdict)) return outcomeWord(true);
  if (/^(fail|failed)$/i.test(verdict)) return outcomeWord(false);
  return `<span class="outcome other">${esc(verdict)}</span>`;
}

/** The report card: rows x columns in the order they first appear, each cell's text and verdict. */
export function cardSection(cells: CardCell[]): string {
  const rows = [...new Set(cells.map((c) => c.row))];
  const columns = [...new Set(cells.map((c) => c.column))];
  const cell = (row: string, column: string) => {
    const found = cells.filter((c) => c.row === row && c.column === column);
    return found.length ? found.map((c) => `${verdictText(c.verdict)}<div>${esc(c.text)}</div>`).join("") : "—";
  };
  return `<section aria-labelledby="card-h"><h2 id="card-h">Report card</h2>
<div class="scroll" tabindex="0" role="region" aria-label="report card"><table class="card"><thead><tr><th scope="col"></th>${columns.map((c) => `<th scope="col">${esc(c)}</th>`).join("")}</tr></thead>
<tbody>${rows.map((r) => `<tr><th scope="row">${esc(r)}</th>${columns.map((c) => `<td>${cell(r, c)}</td>`).join("")}</tr>`).join("")}</tbody></table></div>
</section>`;
}
