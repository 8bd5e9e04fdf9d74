// run-output/index.html: one page listing every run in a run-output folder, one line each (its
// verdict, what happened in words, a link to the run's own page, run-page.ts, which holds its
// checks and its diagram), so the page of a full `all` stays small. A pure function of what the
// runs wrote (case reports, contract.json, card.json): it re-derives no verdict and re-runs
// nothing. Nothing outside the folder: the CSS and the small filter script are inline, links are
// relative. Without the script every run is listed.
import type { PageRun } from "./page-run.js";
import type { CaseReport, ParityVerdict, RunRecord } from "../session/pipeline.js";
import { PAGE_CSS, PAGE_SCRIPT } from "./index-assets.js";
import { cardSection, contractSection, outcomeWord, type CardCell, type ContractRow } from "./index-parts.js";
import { runOutcome } from "./outcome.js";
import { esc, svgFileName } from "./svg.js";

/** The index page's file name; each run's page sits beside it. */
export const INDEX_FILE = "index.html";

/** One case report and, for each of its runs' SVG file names, whether the folder has the file. */
export interface PageCase {
  file: string;
  report: CaseReport;
  svgs: Record<string, boolean>;
}

export interface IndexInput {
  /** scenario case reports, in the order to list them */
  cases: PageCase[];
  /** run-output/contract.json, when the contract was run */
  contract?: { file: string; ok: boolean; cases: CaseReport[]; rows?: ContractRow[] };
  /** run-output/card.json, when a report card was made */
  card?: CardCell[];
  /** files in the folder that are not shown, and why */
  skipped: { file: string; reason: string }[];
}


const anchor = (text: string) => text.replace(/[^A-Za-z0-9_.-]/g, "_");

/** "py-inline → ts1, sdk loop": the short name the filter lists. */
export function peersText(report: CaseReport): string {
  return `${report.client} → ${report.server}, ${report.loop} loop${report.onDeadlock === "break" ? ", break at deadlock" : ""}`;
}

/** What the peers are, from their registry entries (sdk, meaning) as the report carries them. */
export function peersWhat(report: CaseReport): string {
  const sdks = report.clientSdk && report.serverSdk ? ` (${report.clientSdk} → ${report.serverSdk})` : "";
  return `${report.client} → ${report.server}${sdks}: ${report.loopMeaning}${report.onDeadlock === "break" ? "; cycle broken at once" : ""}`;
}

/** Every SDK the runs used, each once, in the order met. */
function sdkVersions(reports: CaseReport[]): string[] {
  return [...new Set(reports.flatMap((r) => [r.clientSdk ?? `@modelcontextprotocol/sdk ${r.versions.sdk}`, r.serverSdk ?? `@modelcontextprotocol/sdk ${r.versions.sdk}`]))];
}

/** The parity verdicts that involve this run: memory against each other transport, same repeat. */
function parityOf(report: CaseReport, run: RunRecord): ParityVerdict[] {
  return report.parity.filter((p) => p.repeat === run.repeat && (run.transport === "memory" || p.transport === run.transport));
}

export function pageRun(report: CaseReport, run: RunRecord, kind: "scenario" | "contract", svgs: PageCase["svgs"] = {}): PageRun {
  const parity = parityOf(report, run);
  const suffix = report.onDeadlock === "break" ? ".break" : "";
  const svgFile = svgFileName(report.scenario, report.column, suffix, run.transport, run.repeat);
  const page = kind === "contract" ? `contract.${anchor(report.scenario)}.${anchor(run.transport)}-${run.repeat}.html` : svgFile.replace(/\.svg$/, ".html");
  // A parity verdict counts against the run compared with memory, not against memory itself.
  const failing = [
    ...run.verdicts.filter((v) => !v.ok).map((v) => v.check),
    ...parity.filter((p) => !p.ok && p.transport === run.transport).map((p) => `parity memory vs ${p.transport}`),
  ];
  return {
    id: anchor(`${kind}-${report.scenario}.${report.column}${suffix}.${run.transport}-${run.repeat}`),
    scenario: kind === "contract" ? "contract" : report.scenario,
    peers: report.column + suffix,
    peersText: peersText(report),
    peersWhat: peersWhat(report),
    outcome: runOutcome({ ...run, ok: failing.length === 0 }),
    transport: run.transport,
    repeat: run.repeat,
    ok: failing.length === 0,
    failing,
    report,
    run,
    parity,
    svgFile,
    page,
    hasSvg: svgs[svgFile] === true,
  };
}

/** Every run the folder holds, as the index lists them and each has its own page. */
export function pageRuns(input: IndexInput): { scenarioRuns: PageRun[]; contractRuns: PageRun[] } {
  return {
    scenarioRuns: input.cases.flatMap((c) => c.report.runs.map((run) => pageRun(c.report, run, "scenario", c.svgs))),
    contractRuns: (input.contract?.cases ?? []).flatMap((report) => report.runs.map((run) => pageRun(report, run, "contract", {}))),
  };
}

export function renderIndexPage(input: IndexInput): string {
  const { scenarioRuns, contractRuns } = pageRuns(input);
  const all = [...scenarioRuns, ...contractRuns];
  const failed = all.filter((r) => !r.ok);
  const reports = [...input.cases.map((c) => c.report), ...(input.contract?.cases ?? [])];
  const node = reports[0]?.versions.node;
  const sdks = sdkVersions(reports);
  // What happened, counted by its words: a deadlock as predicted is not the same news as "completed".
  const happened = [...new Set(all.map((r) => r.outcome.what))].map((what) => `${all.filter((r) => r.outcome.what === what).length} ${what}`);
  // The same counts as the terminal summary: runs by their checks, parity on its own.
  const checksFailed = all.filter((r) => !r.run.ok).length;
  const parity = reports.flatMap((r) => r.parity);
  const parityText = parity.length ? `; parity ${parity.filter((p) => p.ok).length} agreed, ${parity.filter((p) => !p.ok).length} differed` : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>MCP reentrancy lab: ${all.length} runs, ${failed.length} failed</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<header>
<h1>MCP reentrancy lab: every run in this folder</h1>
<p class="totals"><strong id="total">${all.length} runs</strong>: ${all.length - checksFailed} passed, ${checksFailed} failed${parityText}${
    sdks.length ? ` · ${sdks.map(esc).join(" · ")} · node ${esc(node ?? "?")}` : ""
  }</p>
${happened.length ? `<p class="happened">What happened: ${esc(happened.join("; "))}.</p>` : ""}
${failed.length ? `<nav aria-label="failing runs"><h2>Failing runs</h2><ul>${failed.map((r) => `<li><a href="${esc(r.page)}">${esc(runTitle(r))}</a>: ${esc(failingText(r))}</li>`).join("")}</ul></nav>` : all.length ? `<p>Every run holds its hand-written expectations (a deadlock counts as expected where the lab predicts one).</p>` : `<p>No run output in this folder yet: run <code>npx tsx lab/run.ts all</code>.</p>`}
<p class="help">Each run's name links to its own page: its sequence diagram, every check against its hand-written expectation, and its parity verdicts. The pages are built from the JSON the runs wrote, by <code>lab/render/index-page.ts</code> and <code>run-page.ts</code>; every path on them is relative, so the folder can be shared as it is.</p>
</header>
<main>
${filters(all)}
<section aria-labelledby="runs-h"><h2 id="runs-h">Scenario runs (${scenarioRuns.length})</h2>
${scenarioRuns.length ? `<ol class="runs">${scenarioRuns.map(runItem).join("\n")}</ol>` : "<p>No scenario was run into this folder.</p>"}
</section>
${input.contract ? contractSection(input.contract, contractRuns, runItem) : ""}
${input.card ? cardSection(input.card) : ""}
${input.skipped.length ? `<section aria-labelledby="skipped-h"><h2 id="skipped-h">Files not shown</h2><ul>${input.skipped.map((s) => `<li><code>${esc(s.file)}</code>: ${esc(s.reason)}</li>`).join("")}</ul></section>` : ""}
</main>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}

export function runTitle(r: PageRun): string {
  return `${r.scenario === "contract" ? `contract ${r.report.scenario}` : r.scenario} · ${r.peers} · ${r.transport} · #${r.repeat}`;
}

function options(name: string, label: string, values: [string, string][]): string {
  const opts = values.map(([value, text]) => `<option value="${esc(value)}">${esc(text)}</option>`).join("");
  return `<label>${label}<select name="${name}"><option value="">any</option>${opts}</select></label>`;
}

function distinct(runs: PageRun[], key: (r: PageRun) => [string, string]): [string, string][] {
  const seen = new Map<string, string>();
  for (const r of runs) {
    const [value, text] = key(r);
    if (!seen.has(value)) seen.set(value, text);
  }
  return [...seen];
}

function filters(all: PageRun[]): string {
  return `<form id="filters" class="filters" aria-label="filter the runs" hidden>
${options("scenario", "Scenario", distinct(all, (r) => [r.scenario, r.scenario === "contract" ? "contract (every case)" : r.scenario]))}
${options("peers", "Peers", distinct(all, (r) => [r.peers, r.peersText]))}
${options("transport", "Transport", distinct(all, (r) => [r.transport, r.transport]))}
${options("outcome", "Outcome", [["pass", "passed"], ["fail", "failed"]])}
<button type="button" id="show-all">Show every run</button>
<p id="shown" role="status" aria-live="polite">${all.length} of ${all.length} runs shown</p>
</form>`;
}

/** The failing checks by name, the first few: the rest are on the run's page (the index stays small). */
function failingText(r: PageRun, few = 3): string {
  const more = r.failing.length - few;
  return `${r.failing.slice(0, few).join("; ")}${more > 0 ? `; and ${more} more (on its page)` : ""}`;
}

/** One run, one line: its verdict, names, what happened in words, and a link to its own page. */
export function runItem(r: PageRun): string {
  const data = `data-run data-scenario="${esc(r.scenario)}" data-peers="${esc(r.peers)}" data-transport="${esc(r.transport)}" data-outcome="${r.ok ? "pass" : "fail"}"`;
  const name = r.scenario === "contract" ? `contract · ${r.report.scenario}` : r.scenario;
  const failing = r.failing.length ? `<span class="failing">fails: ${esc(failingText(r))}</span>` : "";
  return `<li ${data} id="${r.id}">${outcomeWord(r.ok)}<a class="name" href="${esc(r.page)}">${esc(name)}</a><span class="peers">${esc(r.peersWhat)}</span><span class="transport">${esc(r.transport)}</span><span class="repeat">repeat ${r.repeat}</span><span class="happened ${r.outcome.kind}">${esc(r.outcome.words)}</span>${failing}</li>`;
}
