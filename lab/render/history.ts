// A release history as a page (Markdown) and a picture (SVG): one row per behaviour, one column per release, a
// colour per outcome, and a mark at each release where a row's outcome changed. Renders only.
import { compareReleases, INCONCLUSIVE, NOT_RUN, type HistoryData } from "../plan/history.js";
import { el, esc, FONT, text } from "./svg-parts.js";

/** A colour per outcome; an outcome not listed is grey. */
const FILL: Record<string, string> = {
  deadlocks: "#b91c1c",
  hangs: "#7f1d1d",
  "one at a time": "#c2410c",
  "cannot answer": "#6b7280",
  completes: "#15803d",
  several: "#15803d",
  "n/a": "#e5e7eb",
  [NOT_RUN]: "#fbbf24",
  [INCONCLUSIVE]: "#a3a3a3",
  // the cancel of request id 0 (lab/check/history.ts CANCEL_ZERO_WORD)
  aborted: "#15803d",
  "ignored: id 0 only": "#b91c1c",
  "never aborted": "#7f1d1d",
};
const fill = (outcome: string) => FILL[outcome] ?? "#9ca3af";

/** The transports the rows ran over, in row order (a row's id ends in .<transport>). */
const transportsOf = (data: HistoryData) => [...new Set(data.rows.map((row) => row.id.slice(row.id.lastIndexOf(".") + 1)))];

const rangeText = (from: string, to: string) => (from === to ? from : `${from}-${to}`);

export function renderHistoryMarkdown(data: HistoryData): string {
  const lines = [
    `# ${data.title}: ${data.releases.length} releases, ${data.releases[0]} to ${data.releases.at(-1)}`,
    "",
    `${data.which} on ${data.listed}, each against the lab's ts1 server over ${transportsOf(data).join(" and ")}. ${data.install}`,
    "",
    "![the history](history.svg)",
    "",
    "| behaviour | ranges |",
    "|---|---|",
    ...data.rows.map((row) => `| ${row.title} | ${data.ranges[row.id]!.map((r) => `${r.outcome} ${rangeText(r.from, r.to)}`).join("; ")} |`),
    "",
    data.differences.length === 0 ? `Every cell is as expected/history/${data.sdk}.json says.` : `## Differences from expected/history/${data.sdk}.json`,
    ...data.differences.map((d) => `- ${d.behaviour} at ${d.release}: expected ${d.expected}, got ${d.actual}`),
    "",
    "## Cells not run or inconclusive, and why",
    "",
    ...data.rows.flatMap((row) => row.cells.filter((c) => c.outcome === NOT_RUN || c.outcome === INCONCLUSIVE).map((c) => `- ${row.title}, ${c.release}: ${c.detail}`)),
    "",
  ];
  return lines.join("\n");
}

const CELL = 14;
const LEFT = 300;
const TOP = 90;
const ROW_H = 34;

export function renderHistorySvg(data: HistoryData): string {
  const releases = [...data.releases].sort(compareReleases);
  const width = LEFT + releases.length * CELL + 40;
  const x = (release: string) => LEFT + releases.indexOf(release) * CELL;
  const parts: string[] = [text(16, 24, `${data.title}: ${releases[0]} to ${releases.at(-1)}, one column per release`, { "font-size": 14, "font-weight": "bold" })];
  // release labels, rotated, above the columns
  for (const release of releases) parts.push(text(x(release) + CELL / 2 + 3, TOP - 6, release, { "font-size": 9, transform: `rotate(-60 ${x(release) + CELL / 2 + 3} ${TOP - 6})` }));
  data.rows.forEach((row, i) => {
    const y = TOP + i * ROW_H;
    parts.push(text(16, y + CELL - 2, row.title));
    for (const cell of row.cells)
      parts.push(el("rect", { x: x(cell.release), y, width: CELL - 1, height: CELL, fill: fill(cell.outcome) }, `<title>${esc(`${cell.release}: ${cell.outcome}: ${cell.detail}`)}</title>`));
    // the release where the outcome changed: a mark under its column, named
    for (const range of data.ranges[row.id]!.slice(1)) {
      parts.push(el("path", { d: `M${x(range.from) - 1} ${y - 2}v${CELL + 10}`, stroke: "#111827", "stroke-width": 2 }));
      parts.push(text(x(range.from), y + CELL + 12, `${range.from}: ${range.outcome}`, { "font-size": 9 }));
    }
  });
  const legendY = TOP + data.rows.length * ROW_H + 10;
  const used = [...new Set(data.rows.flatMap((r) => r.cells.map((c) => c.outcome)))];
  used.forEach((outcome, i) => {
    parts.push(el("rect", { x: 16 + i * 130, y: legendY, width: 12, height: 12, fill: fill(outcome) }));
    parts.push(text(32 + i * 130, legendY + 10, outcome));
  });
  const height = legendY + 30;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}">${el("rect", { width, height, fill: "#ffffff" })}${parts.join("")}</svg>\n`;
}
