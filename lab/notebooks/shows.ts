// What a block can show (show="..."), whether a run can give it, and rendering one block's
// contents from one run. Renderers read the reports only (timeline, wire, verdicts, transport
// evidence); `timing` and `parity` also read the expectation file.
import { serverChildOf } from "../plan/evidence.js";
import type { RunRecord } from "../session/pipeline.js";
import { renderMermaid } from "../render/mermaid.js";
import { renderVerdicts, runHeader } from "../render/report.js";
import { renderSwimlane } from "../render/swimlane.js";
import { contractTable, resultsTable } from "./call-tables.js";
import { fenced, runName, runsOf, trimLines } from "./format.js";
import { heldTable, timingTable } from "./loop-tables.js";
import type { RunOutput } from "./runs.js";
import { childTable, comparedTable, parityText } from "./stdio-shows.js";
import { hasHttpRun, httpTable } from "./http-shows.js";
import { modelText, wireTable } from "./wire-shows.js";
import { commandOf, fenceOf, FILE_SHOWS } from "./programs.js";
import { pictureLines } from "./pictures.js";

/** Every show a block can ask for (show="..."), and what it holds. */
export const SHOWS = {
  command: "the command, as a reader types it, and exactly what it prints",
  markdown: "what the command prints, as Markdown (for a command that prints a table, e.g. vocabulary)",
  swimlane: "the terminal swimlane of each run (no colour)",
  mermaid: "a Mermaid sequenceDiagram of each run (GitHub renders it)",
  results: "a Markdown table: run, call, status, computed, value",
  verdicts: "each run's checks against its hand-written expectation, PASS or FAIL",
  contract: "a Markdown table of a contract run: each case's answer, the client's reply on the wire, the result, who refused",
  held: "a Markdown table of every frame that waited in a queue behind a request holding the loop, and whether that was a deadlock",
  timing: "a Markdown table: callbacks running at once (peak), the median callback, the callbacks' own times added up, each timed span and what it is checked against",
  parity: "each memory/stdio parity verdict, with the allowances its expectation names (needs --transport both)",
  compared: "a Markdown table of the client events parity compares, memory beside stdio (needs --transport both)",
  child: "a Markdown table of each stdio child's lifecycle: stdout lines, stderr, exit, forced kill",
  http: "a Markdown table of each HTTP request of a run over http: what it carried, its status, the frames its response stream brought",
  wire: "a Markdown table per run of every frame on the wire, in the order the lab recorded it, with what each carried",
  model: "the serial model checked against real code (py1, py-inline), fact by fact, as the run printed it",
  source: "a file of the project as it is (run=\"<path>\"), fenced in its language",
  picture: "each run's SVG, linked from notebooks/pictures/, where the engine keeps it; --check compares it by structure (texts in order, times removed)",
  program: "a .ts or .py file of the project run as a program (run=\"<path> [arguments]\"): the command and what it printed",
} as const;
export type Show = keyof typeof SHOWS;

/** Why a show cannot be made from this run, or undefined when it can. */
export function unsuitable(show: Show, output: RunOutput): string | undefined {
  if (show === "command" || show === "markdown" || FILE_SHOWS.has(show)) return undefined;
  if (output.reports.length === 0) return `show="${show}" needs a scenario run, and run="${output.run}" wrote no case report`;
  if (show === "contract" && !output.contract) return `show="contract" needs a contract run (run="contract ...")`;
  if ((show === "timing" || show === "parity") && output.contract) return `show="${show}" needs a scenario run, not a contract run`;
  if ((show === "parity" || show === "compared") && !output.reports.some((r) => r.parity.length > 0)) {
    return `show="${show}" needs runs over both transports (--transport both)`;
  }
  if (show === "model" && !output.model) return `show="model" needs a nested run with ts1 under serial and py1 or py-inline (e.g. --client ts1,py1)`;
  if (show === "child" && !runsOf(output).some(({ run }) => serverChildOf(run.transportEvidence) !== undefined)) {
    return `show="child" needs a run over stdio (--transport stdio|both)`;
  }
  if (show === "picture" && !output.svgs) return `show="picture" needs a scenario run that writes an SVG, and run="${output.run}" wrote none`;
  if (show === "http" && !hasHttpRun(output)) return `show="http" needs a run over http (--transport http|all)`;
  return undefined;
}

/** One text block: each run under its header, the runs a blank line apart. */
function headedText(output: RunOutput, render: (run: RunRecord) => string): string[] {
  return fenced(
    "text",
    runsOf(output).flatMap(({ report, run }, i) => [...(i ? [""] : []), runHeader(report, run), ...render(run).split("\n")]),
  );
}

/** How each show is made from one run's output. */
const RENDERERS: Record<Show, (output: RunOutput) => string[]> = {
  command: (output) => {
    const lines = [`$ npx tsx lab/run.ts ${output.run}`, ...trimLines(output.stdout)];
    if (output.code !== 0) lines.push(...(output.stderr.trim() ? trimLines(output.stderr) : []), `(exit ${String(output.code)})`);
    return fenced("console", lines);
  },
  // Printed as is: the command's output is Markdown. A failed run says so under it.
  markdown: (output) => [...trimLines(output.stdout), ...(output.code !== 0 ? ["", `(exit ${String(output.code)}${output.stderr.trim() ? `: ${output.stderr.trim().split("\n")[0]}` : ""})`] : [])],
  swimlane: (output) => headedText(output, (run) => renderSwimlane(run, { color: false })),
  verdicts: (output) => headedText(output, (run) => renderVerdicts(run, false)),
  mermaid: (output) => {
    const runs = runsOf(output);
    return runs.flatMap(({ report, run }, i) => [
      ...(runs.length > 1 ? [...(i ? [""] : []), `**${runName(report, run)}**`, ""] : []),
      ...fenced("mermaid", renderMermaid(run).split("\n")),
    ]);
  },
  results: resultsTable,
  contract: contractTable,
  held: heldTable,
  timing: timingTable,
  parity: parityText,
  compared: comparedTable,
  child: childTable,
  http: httpTable,
  wire: wireTable,
  model: modelText,
  picture: pictureLines,
  source: (output) => fenced(fenceOf(output.run), trimLines(output.stdout)),
  program: (output) => fenced("console", [`$ ${commandOf(output.run)}`, ...trimLines(output.stdout), ...(output.code !== 0 ? [...(output.stderr.trim() ? trimLines(output.stderr) : []), `(exit ${String(output.code)})`] : [])]),
};

export function renderBlock(show: Show, output: RunOutput): string[] {
  return RENDERERS[show](output);
}
