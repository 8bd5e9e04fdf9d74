// The shows of runs over stdio: `parity` and `compared` (memory beside stdio), `child` (each
// stdio child's lifecycle).
import { relative, resolve } from "node:path";
import { lifecycleProblems } from "../transports/child-process.js";
import { serverChildOf } from "../plan/evidence.js";
import { normalise as parityEvents, SERVER_SIDE_ALLOWANCES, type ParityResult } from "../check/parity.js";
import { type ParityEvent } from "../check/parity-types.js";
import { HTTP_POSTS_REASON } from "../check/http-parity.js";
import type { CaseReport } from "../session/pipeline.js";
import { rpc } from "../render/story.js";
import { cell, code, fenced, ms1, runName, runsOf } from "./format.js";
import { ROOT, type RunOutput } from "./runs.js";

/** The memory run and the run it was compared with (stdio, http) for one parity verdict. */
function parityPair(report: CaseReport, repeat: number, transport = "stdio") {
  const memory = report.runs.find((r) => r.transport === "memory" && r.repeat === repeat);
  const stdio = report.runs.find((r) => r.transport === transport && r.repeat === repeat);
  return { memory, stdio };
}

/**
 * The parity verdicts, with the allowances the expectation NAMES (not the ones a run happened to
 * need: whether concurrent arrivals interleave depends on how the pipe chunks them).
 */
export function parityText(output: RunOutput): string[] {
  const out: string[] = [];
  const verdict = (side: string, r: ParityResult | null, against: string, other: string) => {
    if (r === null) return [`  FAIL ${side} side: the child wrote no record of its own events`];
    const lines = [`  ${r.ok ? "PASS" : "FAIL"} ${side} side ${r.ok ? "agrees" : "differs"}: ${r.memoryCount} ${side} events in memory, ${r.otherCount} ${against}`];
    const diff = r.firstDifference;
    if (diff) lines.push(`      first difference in ${diff.sequence} at ${diff.index}/${diff.otherIndex}: memory ${JSON.stringify(diff.memory)} vs ${other} ${JSON.stringify(diff.other)}`);
    return lines;
  };
  for (const report of output.reports) {
    const file = relative(ROOT, resolve(ROOT, report.expectedFile)); // the store holds it relative to the project
    for (const p of report.parity) {
      if (out.length) out.push("");
      out.push(
        `== ${report.scenario} · ${report.loop}${report.onDeadlock === "break" ? " · break" : ""} · repeat ${p.repeat}: memory vs ${p.transport} ==`,
        ...verdict("client", p.result, `in the parent's ${p.transport} timeline`, p.transport),
        ...verdict("server", p.server ?? null, "in the child's own record", p.transport),
      );
      const allows = p.named;
      if (allows.length === 0) out.push(`  client side, allowed differences named in ${file}: none, the two must agree exactly`);
      else out.push(`  client side, allowed differences named in ${file}:`);
      for (const a of allows) {
        out.push(`    ${a.rule}: ${a.why}`);
        for (const rule of a.kinds) out.push(`      ${rule.kind}: ${rule.reason}`);
      }
      const floating = SERVER_SIDE_ALLOWANCES.filter((rule) => rule.floating).map((rule) => rule.kind);
      out.push(`  server side, always allowed: ${floating.join(" and ")} float; their order among themselves must match`);
      if (p.transport === "http") out.push(`  server side over http, also allowed: ${HTTP_POSTS_REASON}`);
    }
  }
  return fenced("text", out);
}

function parityEventText(e: ParityEvent | undefined): string {
  if (!e) return "(nothing)";
  const frame = e.method !== undefined || e.id !== undefined ? ` ${rpc(e)}` : "";
  return `${e.kind}${frame}${e.detail ? ` ${JSON.stringify(e.detail)}` : ""}`;
}

/** The client events parity compares, as it compares them: timing and server events dropped. */
export function comparedTable(output: RunOutput): string[] {
  const out: string[] = [];
  const pairs = output.reports.flatMap((report) => report.parity.map((p) => ({ report, ...parityPair(report, p.repeat, p.transport), repeat: p.repeat, other: p.transport })));
  for (const { report, memory, stdio, repeat, other } of pairs) {
    const a = parityEvents(memory?.events ?? []);
    const b = parityEvents(stdio?.events ?? []);
    if (pairs.length > 1) out.push(...(out.length ? [""] : []), `**${report.scenario} · ${report.loop} · ${other} · repeat ${repeat}**`, "");
    out.push(`| # | memory | ${other} |`, "|---|---|---|");
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const same = JSON.stringify(a[i]) === JSON.stringify(b[i]);
      out.push(`| ${i + 1} | ${code(parityEventText(a[i]))} | ${same ? "same" : `**differs:** ${code(parityEventText(b[i]))}`} |`);
    }
  }
  return out;
}

/** Each stdio child's life as the parent saw it. */
export function childTable(output: RunOutput): string[] {
  const rows = [
    "| run | stdout lines | lines that were not one JSON-RPC message | stderr | stdin closed → exit | exit code | signal | killed after the grace | lifecycle problems |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const { report, run } of runsOf(output)) {
    const e = serverChildOf(run.transportEvidence);
    if (!e) continue;
    // an HTTP child's stdout holds its port line only; frames travel over HTTP
    const lines = (run.transport === "http" ? 1 : run.wire.filter((f) => f.from === "server").length) + (e.stdoutErrors?.length ?? 0);
    const stderr = e.stderr ? `${e.stderr.trimEnd().split("\n").length} line(s): ${code(e.stderr.trimEnd().split("\n")[0]!.slice(0, 80))}` : "empty";
    const problems = lifecycleProblems(run.transportEvidence).map((p) => p.replace(/^child \d+ /, "child "));
    rows.push(
      `| ${runName(report, run)} | ${lines} | ${e.stdoutErrors?.length ?? 0} | ${stderr} | ${e.closeToExitMs === undefined ? "-" : ms1(e.closeToExitMs)} | ${String(e.exitCode)} | ${e.signal ?? "none"} | ${e.forcedKill ? "yes" : "no"} | ${problems.length ? cell(problems.join("; ")) : "none"} |`,
    );
  }
  return rows;
}
