// The pieces every show is made of: fenced blocks, table cells, run names, times.
import type { CaseReport, RunRecord } from "../session/pipeline.js";
import type { RunOutput } from "./runs.js";

/** A fenced code block, its fence longer than any run of backticks inside it. */
export function fenced(info: string, lines: string[]): string[] {
  const longest = Math.max(2, ...lines.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((r) => r.length))));
  const fence = "`".repeat(longest + 1);
  return [`${fence}${info}`, ...lines, fence];
}

export const trimLines = (text: string) => text.replace(/\s+$/, "").split("\n");

export const runsOf = (output: RunOutput) => output.reports.flatMap((report) => report.runs.map((run) => ({ report, run })));

export const runName = (report: CaseReport, run: RunRecord) =>
  `${report.scenario} · ${report.column}${report.onDeadlock === "break" ? " · break" : ""} · ${run.transport} #${run.repeat}`;

export const cell = (value: unknown) => String(value).replace(/\|/g, "\\|");

export const code = (text: string) => `\`${cell(text)}\``;
export const ms1 = (value: number) => `${value.toFixed(1)} ms`;
