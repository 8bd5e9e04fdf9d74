// Text for one case: a header per run, its swimlane, one line per expectation, a summary.
import type { ParityResult } from "../check/parity.js";
import type { CaseReport, RunRecord } from "../session/pipeline.js";
import { renderSwimlane } from "./swimlane.js";

const mark = (ok: boolean, color: boolean) => (color ? (ok ? "\x1b[32m✔\x1b[0m" : "\x1b[31m✘\x1b[0m") : ok ? "PASS" : "FAIL");

export function runHeader(report: CaseReport, run: RunRecord): string {
  const peers = report.client === "ts1" && report.server === "ts1" ? "" : ` · client ${report.client} · server ${report.server}`;
  const protocol = run.negotiatedProtocol ? ` · protocol ${run.negotiatedProtocol}` : "";
  return `== ${report.scenario} · ${report.dispatch} (${report.dispatchMeaning})${peers} · ${run.transport} · repeat ${run.repeat}${protocol} ==`;
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
  return [runHeader(report, run), renderSwimlane(run, { color }), "", renderVerdicts(run, color)].join("\n");
}

export function resultLine(run: RunRecord): string {
  const results = run.events
    .filter((e) => e.kind === "tool.result")
    .map((e) => {
      const r = (e.detail?.result ?? e.detail?.error) as { status?: unknown; value?: unknown } | null;
      return `${String(e.detail?.call)}=${String(r?.status)}${r && "value" in r && r.value !== null ? `(${String(r.value)})` : ""}`;
    });
  return results.join(" ");
}

export function renderParity(report: CaseReport, color: boolean): string {
  return report.parity
    .map((p) => {
      const side = (name: string, r: ParityResult | null) =>
        r === null ? `${name}: the child wrote no events` : `${name} ${r.ok ? "agrees" : "differs"} (${r.memoryCount} vs ${r.otherCount} events)`;
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

export function renderSummary(reports: CaseReport[], color: boolean): string {
  const lines = ["", "summary"];
  for (const report of reports) {
    for (const run of report.runs) {
      const failed = run.verdicts.filter((v) => !v.ok).length;
      lines.push(
        `  ${mark(run.ok, color)} ${report.scenario.padEnd(14)} ${report.column.padEnd(7)} ${run.transport.padEnd(7)} #${run.repeat}  ${resultLine(run).padEnd(44)} ${run.durationMs.toFixed(0).padStart(5)} ms  ${run.verdicts.length - failed}/${run.verdicts.length} checks`,
      );
      if (run.fault) lines.push(`      fault: ${run.fault}`);
    }
  }
  const parity = reports.map((r) => renderParity(r, color)).filter(Boolean);
  if (parity.length) lines.push("", "parity (memory vs every other transport)", ...parity);
  const runs = reports.flatMap((r) => r.runs);
  const bad = runs.filter((r) => !r.ok).length;
  const checks = reports.flatMap((r) => r.parity);
  const badParity = checks.filter((p) => !p.ok).length;
  lines.push(`${runs.length - bad} runs passed, ${bad} failed${checks.length ? `; parity ${checks.length - badParity} agreed, ${badParity} differed` : ""}`);
  return lines.join("\n");
}
