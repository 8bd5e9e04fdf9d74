// Text for one case: a header per run, its swimlane, one line per expectation, a summary.
import { basename } from "node:path";
import { type ParityResult } from "../check/parity.js";
import type { CaseReport, RunRecord } from "../session/pipeline.js";
import { renderSwimlane } from "./swimlane.js";
import { renderHttp } from "./http.js";
import { httpOf } from "../plan/evidence.js";
import { runOutcome } from "./outcome.js";
import { renderRepeated } from "./repeated.js";
import { repeatedSessions } from "../session/attempts.js";

const mark = (ok: boolean, color: boolean) => (color ? (ok ? "\x1b[32m✔\x1b[0m" : "\x1b[31m✘\x1b[0m") : ok ? "PASS" : "FAIL");


export function runHeader(report: CaseReport, run: RunRecord): string {
  const peers = report.client === "ts1" && report.server === "ts1" ? "" : ` · client ${report.client} · server ${report.server}`;
  const broken = report.onDeadlock === "break" ? " · --on-deadlock break" : "";
  const protocol = run.negotiatedProtocol ? ` · protocol ${run.negotiatedProtocol}` : "";
  return `== ${report.scenario} · ${report.loop} (${report.loopMeaning})${broken}${peers} · ${run.transport} · repeat ${run.repeat}${protocol} ==`;
}

/** The line under a run's header: what happened, beside its verdict. */
export function outcomeLine(report: CaseReport, run: RunRecord): string {
  const failed = run.verdicts.filter((v) => !v.ok).length;
  return `   outcome: ${runOutcome(run).words} (${run.ok ? "PASS" : "FAIL"}: ${run.verdicts.length - failed} of ${run.verdicts.length} checks hold)`;
}

/** One line for one run (what `all` prints per run unless --verbose): verdict, names, what happened. */
export function runLine(report: CaseReport, run: RunRecord, color: boolean): string {
  const model = report.onDeadlock === "break" ? `${report.column}+break` : report.column;
  const failed = run.verdicts.filter((v) => !v.ok);
  const lines = [`${mark(run.ok, color)} ${report.scenario} · ${model} · ${run.transport} #${run.repeat}: ${runOutcome(run).words}`];
  for (const v of failed) lines.push(`    ${mark(false, color)} ${v.check}${v.details.length ? `: ${v.details[0]}` : ""}`);
  if (run.fault) lines.push(`    fault: ${run.fault}`);
  return lines.join("\n");
}

export function renderVerdicts(run: RunRecord, color: boolean): string {
  const lines: string[] = [];
  for (const v of run.verdicts) {
    lines.push(`  ${mark(v.ok, color)} ${v.check}`);
    for (const d of v.details) lines.push(`      ${d}`);
  }
  return lines.join("\n");
}

export function renderRun(report: CaseReport, run: RunRecord, color: boolean): string {
  const http = httpOf(run.transportEvidence);
  return [runHeader(report, run), outcomeLine(report, run), renderSwimlane(run, { color }), ...(http ? ["", renderHttp(http)] : []), "", renderVerdicts(run, color)].join("\n");
}

export function resultLine(run: RunRecord): string {
  const results = run.events
    .filter((e) => e.kind === "tool.result")
    .map((e) => {
      const error = e.detail?.error as { code?: unknown } | undefined;
      if (error) return `${String(e.detail?.call)}=error(${String(error.code)})`;
      const r = e.detail?.result as { status?: unknown; value?: unknown } | null;
      return `${String(e.detail?.call)}=${String(r?.status)}${r && "value" in r && r.value !== null ? `(${String(r.value)})` : ""}`;
    });
  return results.join(" ");
}

export function renderParity(report: CaseReport, color: boolean): string {
  return report.parity
    .map((p) => {
      const side = (name: string, r: ParityResult | null) =>
        r === null ? `${name}: not compared (no record of its own)` : `${name} ${r.ok ? "agrees" : "differs"} (${r.memoryCount} vs ${r.otherCount} events)`;
      const head = `  ${mark(p.ok, color)} parity ${report.scenario} ${report.column} #${p.repeat}, memory vs ${p.transport}: ${side("client", p.result)}; ${side("server", p.server)}`;
      const allowed = p.allowed.map((a) => `      allowed: ${a}`);
      const where = [p.result, p.server].flatMap((r) => {
        const diff = r?.firstDifference;
        return diff
          ? [`      first difference in ${diff.sequence} at ${diff.index}/${diff.otherIndex}: memory ${JSON.stringify(diff.memory)} vs ${p.transport} ${JSON.stringify(diff.other)}`]
          : [];
      });
      return [head, ...allowed, ...where].join("\n");
    })
    .join("\n");
}

export interface WrittenOutput {
  /** the run output folder, as the reader would type it */
  outDir: string;
  /** every file written: reports (.json) and pictures (.svg) */
  files: string[];
}

/** `listed`: each run was printed on its own line already (`all`): the summary gives only totals. */
export function renderSummary(reports: CaseReport[], color: boolean, output?: WrittenOutput, listed = false): string {
  const lines = ["", "summary"];
  const model = (report: CaseReport) => (report.onDeadlock === "break" ? `${report.column}+break` : report.column);
  const width = Math.max(7, ...reports.map((r) => model(r).length));
  for (const report of listed ? [] : reports) {
    for (const run of report.runs) {
      const failed = run.verdicts.filter((v) => !v.ok).length;
      lines.push(
        `  ${mark(run.ok, color)} ${report.scenario.padEnd(14)} ${model(report).padEnd(width)} ${run.transport.padEnd(7)} #${run.repeat}  ${resultLine(run).padEnd(44)} ${run.durationMs.toFixed(0).padStart(5)} ms  ${run.verdicts.length - failed}/${run.verdicts.length} checks  ${runOutcome(run).what}`,
      );
      if (run.fault) lines.push(`      fault: ${run.fault}`);
    }
  }
  // Listed: the parity lines that differ; the count of those that agree is in the last line.
  const parity = reports.map((r) => (listed ? { ...r, parity: r.parity.filter((p) => !p.ok) } : r)).map((r) => renderParity(r, color)).filter(Boolean);
  if (parity.length) lines.push("", "parity (memory vs every other transport)", ...parity);
  // Each failing run by name, with the names of its failing checks (details are above, under the run).
  const named = (report: CaseReport, run: RunRecord) => `${report.scenario} · ${report.column}${report.onDeadlock === "break" ? " · --on-deadlock break" : ""} · ${run.transport} #${run.repeat}`;
  const failing = reports.flatMap((report) => report.runs.filter((run) => !run.ok).map((run) => ({ name: named(report, run), run })));
  if (failing.length) {
    lines.push("", "failing checks");
    for (const { name, run } of failing) {
      lines.push(`  ${mark(false, color)} ${name}`);
      for (const v of run.verdicts.filter((v) => !v.ok)) lines.push(`      ${v.check}`);
    }
  }
  // sessions run again because the server was slow (lab/session/attempts.ts): named when there are any
  const repeated = reports.flatMap((report) => repeatedSessions(report.runs, (run) => named(report, run)));
  if (repeated.length) lines.push("", ...renderRepeated(repeated));
  if (output) {
    const json = output.files.filter((f) => f.endsWith(".json")).map((f) => basename(f));
    const svgs = output.files.filter((f) => f.endsWith(".svg")).map((f) => basename(f));
    const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
    lines.push(
      "",
      output.files.length <= 4
        ? `run output in ${output.outDir}/: ${[...json, ...svgs].join(", ")}`
        : `run output in ${output.outDir}/: ${plural(json.length, "report")} (<scenario>.<column>.json) and ${plural(svgs.length, "SVG")} (<scenario>.<column>.<transport>-<repeat>.svg, one per run)`,
    );
  }
  const runs = reports.flatMap((r) => r.runs);
  const bad = runs.filter((r) => !r.ok).length;
  const checks = reports.flatMap((r) => r.parity);
  const badParity = checks.filter((p) => !p.ok).length;
  lines.push(`${runs.length - bad} runs passed, ${bad} failed${checks.length ? `; parity ${checks.length - badParity} agreed, ${badParity} differed` : ""}`);
  return lines.join("\n");
}
