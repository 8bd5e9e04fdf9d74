// The shows for peers in other processes, whose own steps the lab cannot interleave with the
// wire honestly (two processes, two schedulers): `wire`, the frames as the lab recorded them at
// its end of the pipe, in order, with what each carried that matters here; and `model`, the
// serial model checked against real code, as the run printed and wrote it.
import { renderModelVerdict } from "../check/model-vs-real.js";
import { cancelledRequestId, errorOf, resultOf } from "../history/frames.js";
import type { WireFrame } from "../history/timeline.js";
import { rpc } from "../render/story.js";
import { cell, code, fenced, runName, runsOf } from "./format.js";
import type { RunOutput } from "./runs.js";

/** The one thing about a frame worth a column: an error's code, a result's status, a cancel's target. */
function carried(frame: WireFrame): string {
  const error = errorOf(frame.message);
  if (error) return `error ${String(error.code)}`;
  const cancelled = cancelledRequestId(frame.message);
  if (frame.label.method === "notifications/cancelled" && cancelled !== undefined) return `for #${String(cancelled)}`;
  const result = resultOf(frame.message);
  if (frame.label.method === "tools/call" && frame.label.frameType === "result") {
    const s = result?.structuredContent as { status?: unknown; value?: unknown } | undefined;
    return s ? code(`${String(s.status)}${s.value === null || s.value === undefined ? "" : ` ${String(s.value)}`}`) : "";
  }
  if (frame.label.method === "elicitation/create" && frame.label.frameType === "result") return code(String(result?.action));
  return "";
}

export function wireTable(output: RunOutput): string[] {
  const rows: string[] = [];
  for (const { report, run } of runsOf(output)) {
    if (rows.length) rows.push("");
    rows.push(`**${runName(report, run)}**`, "", "| frame | t (ms) | direction | what | carried |", "|---|---|---|---|---|");
    for (const frame of run.wire) {
      const arrow = frame.from === "client" ? "client ──▶ server" : "client ◀── server";
      rows.push(`| ${frame.index} | ${frame.t.toFixed(1)} | ${arrow} | ${cell(rpc({ ...frame.label, id: frame.label.id }))} | ${carried(frame)} |`);
    }
  }
  return rows;
}

export function modelText(output: RunOutput): string[] {
  return fenced("text", output.model!.map(renderModelVerdict).join("\n\n").split("\n"));
}
