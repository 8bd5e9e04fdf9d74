// The show of runs over Streamable HTTP: `http`, each request the client transport made, what it
// carried, its status and the frames its response stream brought (no session ids, no ports: they
// change every run).
import { httpOf } from "../plan/evidence.js";
import { httpRows } from "../render/http.js";
import { cell, code, runName, runsOf } from "./format.js";
import type { RunOutput } from "./runs.js";

export const hasHttpRun = (output: RunOutput) => runsOf(output).some(({ run }) => run.transport === "http");

export function httpTable(output: RunOutput): string[] {
  const rows = ["| run | # | request | carries | status | frames on its response stream |", "|---|---|---|---|---|---|"];
  for (const { report, run } of runsOf(output)) {
    const http = httpOf(run.transportEvidence);
    if (run.transport !== "http" || !http) continue;
    for (const r of httpRows(http)) {
      rows.push(`| ${runName(report, run)} | ${r.n} | ${r.method} | ${r.carries ? code(r.carries) : "-"} | ${cell(r.status)} | ${r.stream ? code(r.stream) : "-"} |`);
    }
  }
  return rows;
}
