// The shows of what each call returned: `results` for scenario runs, `contract` for contract runs.
import { contractRow, elicitationReplies } from "../check/contract.js";
import { resultsOf } from "../check/verify.js";
import { cell, code, runName, runsOf } from "./format.js";
import type { RunOutput } from "./runs.js";

export function resultsTable(output: RunOutput): string[] {
  const show = (v: unknown) => (v === undefined ? "-" : cell(JSON.stringify(v)));
  // Results with fields beyond status, computed and value (fan-out, liveness) get one more column.
  const extra = runsOf(output).some(({ run }) =>
    run.events.some((e) => e.kind === "tool.result" && Object.keys((e.detail?.result ?? {}) as object).some((k) => !["status", "computed", "value"].includes(k))),
  );
  const rows = extra
    ? ["| run | call | status | computed | value | also |", "|---|---|---|---|---|---|"]
    : ["| run | call | status | computed | value |", "|---|---|---|---|---|"];
  for (const { report, run } of runsOf(output)) {
    for (const e of run.events) {
      if (e.kind !== "tool.result" || !e.detail) continue;
      const call = cell(e.detail.call);
      if ("error" in e.detail) {
        const error = e.detail.error as { code?: unknown; message?: unknown } | null;
        rows.push(`| ${runName(report, run)} | ${call} | error ${cell(error?.code)} | | ${cell(error?.message)} |${extra ? " |" : ""}`);
        continue;
      }
      const { status, computed, value, ...rest } = (e.detail.result ?? {}) as Record<string, unknown>;
      const more = Object.keys(rest).length ? ` ${cell(Object.entries(rest).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(", "))} |` : extra ? " |" : "";
      rows.push(`| ${runName(report, run)} | ${call} | ${cell(status)} | ${show(computed)} | ${show(value)} |${more}`);
    }
  }
  return rows;
}

/** The contract table: what the callback said, what the client put on the wire, what came back. */
export function contractTable(output: RunOutput): string[] {
  const runs = runsOf(output);
  const several = new Set(runs.map(({ run }) => `${run.transport} #${run.repeat}`)).size > 1;
  const rows = [
    `| case |${several ? " run |" : ""} callback answered | the client's reply on the wire | status | computed | value | refused by |`,
    `|---|${several ? "---|" : ""}---|---|---|---|---|---|`,
  ];
  for (const { report, run } of runs) {
    const row = contractRow(report.scenario, run, report.server);
    const result = resultsOf(run.events)[report.scenario] as { code?: unknown } | undefined;
    const replies = elicitationReplies(run.wire) as ({ result?: unknown; error?: { code?: unknown } } | null)[];
    const reply = replies.length
      ? replies.map((r) => (r === null ? "no reply" : r.error !== undefined ? `error ${String(r.error.code)}` : code(JSON.stringify(r.result)))).join("; ")
      : "no request was sent";
    const status = result?.code !== undefined ? `${row.status} (${String(result.code)})` : row.status;
    rows.push(
      `| ${report.scenario} |${several ? ` ${run.transport} #${run.repeat} |` : ""} ${row.action === "-" ? "(never called)" : row.action} | ${reply} | ${cell(status)} | ${cell(JSON.stringify(row.computed) ?? "-")} | ${cell(JSON.stringify(row.value) ?? "-")} | ${cell(row.layer)} |`,
    );
  }
  return rows;
}
