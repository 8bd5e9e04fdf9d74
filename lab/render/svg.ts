// A self-contained SVG sequence diagram of one run: two lifelines (client, server), one arrow
// per wire frame at the time it left, and the held span, timeout, deadlock and late reply marked.
// It only reads the timeline and the wire. No scripts, no external references, attributes only:
// it opens in any browser as it is.
//
// Time runs down. Every row is labelled with its real time (ms since the session started).
// Rows further apart than 4 ms are spaced in proportion (5 px per ms); closer rows keep a
// minimum spacing so labels stay readable; a gap longer than 40 ms (the 500 ms timeout) is cut
// short and marked with a break that states how long it really was. An arrow is drawn flat
// when its frame arrived less than 1 ms after it left, and slanted to its arrival otherwise.
import { join } from "node:path";
import type { CaseReport } from "../session/pipeline.js";
import { writeAtomic } from "../cli/output.js";
import type { TimelineEvent, WireFrame } from "../history/timeline.js";
import { callbackSpans, frameViews, LONG_GAP_MS, loopSpans, moments, type FrameView, type Moment, type Tone } from "./story.js";

/** What the SVG needs from a run: a SessionEvidence or a RunRecord will do. */
export interface SvgRun {
  scenario: string;
  dispatch: string;
  /** the peers (absent or ts1 against ts1: not shown) */
  client?: string;
  server?: string;
  transport: string;
  repeat: number;
  events: readonly TimelineEvent[];
  wire: readonly WireFrame[];
}

export interface SvgContext {
  dispatchMeaning?: string;
  onDeadlock?: string;
  sdk?: string;
}

const W = 1120;
const X_TIME = 62; // right edge of the time labels
const X = { client: 470, server: 890 } as const;
const NOTE = { client: { edge: X.client - 24, chars: 58 }, server: { edge: X.server + 16, chars: 32 } } as const;
const TOP = 160;
const FLAT_MS = 1;
const MIN_STEP = 20;
const LINE = 13;
const SCALE = 5; // px per ms
const BREAK_H = 72;
const FONT = "DejaVu Sans, Helvetica, Arial, sans-serif";

const COLOR: Record<Tone, string> = {
  plain: "#4b5563",
  call: "#111827",
  callback: "#0e7490",
  ok: "#15803d",
  result: "#111827",
  loop: "#7e22ce",
  held: "#b45309",
  timeout: "#b91c1c",
  failed: "#b91c1c",
  deadlock: "#b91c1c",
  late: "#b91c1c",
  error: "#9f1239",
  cancel: "#c2410c",
};

/** XML text and attribute escaping; characters XML 1.0 forbids become "?". */
export function esc(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "?")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const n = (v: number) => (Math.round(v * 10) / 10).toString();

function attrs(a: Record<string, string | number | undefined>): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${typeof v === "number" ? n(v) : esc(v!)}"`)
    .join("");
}

const el = (name: string, a: Record<string, string | number | undefined>, body?: string) =>
  body === undefined ? `<${name}${attrs(a)}/>` : `<${name}${attrs(a)}>${body}</${name}>`;

const text = (x: number, y: number, content: string, a: Record<string, string | number | undefined> = {}) =>
  el("text", { x, y, "font-family": FONT, "font-size": 11, fill: "#111827", ...a }, esc(content));

function wrap(line: string, chars: number): string[] {
  const out: string[] = [];
  let current = "";
  for (const word of line.split(" ")) {
    if (current && current.length + 1 + word.length > chars) {
      out.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) out.push(current);
  return out;
}

type Row =
  | { t: number; seq: number; kind: "frame"; frame: FrameView; y: number; need: number }
  | { t: number; seq: number; kind: "moment"; moment: Moment; lines: string[]; y: number; need: number };

interface Break {
  y: number;
  ms: number;
}

function layout(frames: FrameView[], notes: Moment[]): { rows: Row[]; breaks: Break[]; bottom: number } {
  const rows: Row[] = [
    ...frames.map((frame): Row => ({ t: frame.sent, seq: frame.seq, kind: "frame", frame, y: 0, need: MIN_STEP })),
    ...notes.map((moment): Row => {
      const lines = moment.lines.flatMap((l) => wrap(l, NOTE[moment.side].chars));
      const need = moment.kind === "call" ? 26 : moment.kind === "deadlock" ? lines.length * LINE + 16 : lines.length * LINE + 7;
      return { t: moment.t, seq: moment.seq, kind: "moment", moment, lines, y: 0, need: Math.max(MIN_STEP, need) };
    }),
  ].sort((a, b) => a.t - b.t || a.seq - b.seq);
  const breaks: Break[] = [];
  let y = TOP;
  rows.forEach((row, i) => {
    const prev = rows[i - 1];
    if (prev) {
      const dt = row.t - prev.t;
      if (dt > LONG_GAP_MS) {
        breaks.push({ y: prev.y + prev.need, ms: dt });
        y = prev.y + prev.need + BREAK_H + 14;
      } else y = prev.y + Math.max(prev.need, dt * SCALE);
    }
    row.y = y;
  });
  const last = rows[rows.length - 1];
  return { rows, breaks, bottom: last ? last.y + last.need + 10 : TOP + 20 };
}

/** y of any time: linear between the two rows around it (so also across a break). */
function timeScale(rows: Row[], bottom: number): (t: number) => number {
  return (t) => {
    let k = -1;
    for (let i = 0; i < rows.length && rows[i]!.t <= t; i++) k = i;
    if (k === -1) return rows[0] ? Math.max(TOP - 20, rows[0].y - (rows[0].t - t) * SCALE) : TOP;
    const a = rows[k]!;
    const b = rows[k + 1];
    if (!b) return Math.min(bottom, a.y + (t - a.t) * SCALE);
    return a.y + ((t - a.t) / (b.t - a.t)) * (b.y - a.y);
  };
}

function arrow(f: FrameView, y1: number, y2: number): string {
  const x1 = X[f.from];
  const x2 = X[f.to];
  const reply = f.label.frameType === "result" || f.label.frameType === "error";
  const color = f.label.frameType === "error" ? "#b91c1c" : f.label.frameType === "notification" ? "#0f766e" : "#1f2937";
  const dir = Math.sign(x2 - x1);
  const head = [
    [x2, y2],
    [x2 - dir * 9, y2 - 4],
    [x2 - dir * 9, y2 + 4],
  ]
    .map(([x, y]) => `${n(x!)},${n(y!)}`)
    .join(" ");
  const parts = [f.late ? " · dispatched late" : "", f.held ? " · held" : "", f.withdrawn === "request" ? " · withdrawn" : f.withdrawn === "answer" ? " · answers a withdrawn request" : ""].join("");
  const title = [
    `frame ${f.index}: ${f.from} → ${f.to}, ${f.text}`,
    `sent ${f.sent.toFixed(3)} ms${f.sentSeen ? "" : " (read)"}`,
    f.arrived !== undefined ? `arrived ${f.arrived.toFixed(3)} ms` : "",
    f.dispatched !== undefined ? `dispatched ${f.dispatched.toFixed(3)} ms` : "",
    f.held ? `held behind ${String(f.held.behindMethod)} #${String(f.held.behindId)}` : "",
    f.late ? "late: its requester gave up" : "",
    f.withdrawn === "request" ? "withdrawn: its sender cancelled it (notifications/cancelled)" : f.withdrawn === "answer" ? "answers a request its sender had withdrawn" : "",
  ]
    .filter(Boolean)
    .join(" · ");
  return el(
    "g",
    {
      class: `frame ${f.label.frameType}${f.late ? " late" : ""}`,
      "data-frame": String(f.index),
      "data-from": f.from,
      "data-type": f.label.frameType,
      "data-method": f.label.method,
      "data-id": f.label.id === undefined ? undefined : String(f.label.id),
    },
    [
      el("title", {}, esc(title)),
      el("line", {
        x1: x1 + dir * 1,
        y1,
        x2: x2 - dir * 8,
        y2,
        stroke: color,
        "stroke-width": 1.4,
        "stroke-dasharray": reply ? "6 4" : undefined,
      }),
      el("polygon", { points: head, fill: color }),
      text((x1 + x2) / 2, Math.min(y1, y2) - 5, `${f.text}${parts}`, {
        "text-anchor": "middle",
        fill: f.late ? COLOR.late : color,
        "font-weight": f.label.frameType === "request" ? "bold" : undefined,
      }),
    ].join(""),
  );
}

function note(row: Extract<Row, { kind: "moment" }>): string {
  const m = row.moment;
  const color = COLOR[m.tone];
  const side = m.side;
  const lifeline = X[side];
  const anchor = side === "client" ? "end" : "start";
  const edge = NOTE[side].edge;
  const cls = `note ${m.kind}`;
  const lines = row.lines.map((line, i) =>
    text(edge, row.y + 4 + i * LINE, line, {
      "text-anchor": anchor,
      fill: color,
      "font-weight": m.tone === "result" || m.tone === "call" || (i === 0 && (m.kind === "deadlock" || m.kind === "timeout")) ? "bold" : undefined,
    }),
  );
  const parts: string[] = [];
  if (m.kind === "call") {
    parts.push(el("line", { x1: X_TIME + 6, y1: row.y - 6, x2: W - 16, y2: row.y - 6, stroke: "#9ca3af", "stroke-dasharray": "2 3" }));
    parts.push(text(X_TIME + 10, row.y + 8, row.lines[0] ?? "", { "font-weight": "bold", "font-size": 12 }));
    return el("g", { class: cls }, parts.join(""));
  }
  if (m.kind === "deadlock") {
    const width = Math.max(...row.lines.map((l) => l.length)) * 6.3 + 16;
    const height = row.lines.length * LINE + 8;
    parts.push(
      el("rect", { x: edge - width + 8, y: row.y - 8, width, height, rx: 4, fill: "#fee2e2", stroke: color, "stroke-width": 1.5 }),
      el("line", { x1: edge + 8, y1: row.y, x2: lifeline, y2: row.y, stroke: color, "stroke-width": 1.5 }),
      el("circle", { cx: lifeline, cy: row.y, r: 6, fill: "none", stroke: color, "stroke-width": 2 }),
    );
  } else if (m.kind === "timeout" || m.tone === "failed") {
    parts.push(
      el("path", { d: `M${n(lifeline - 6)},${n(row.y - 6)} l12,12 m0,-12 l-12,12`, stroke: color, "stroke-width": 2.5 }),
      el("line", { x1: edge + 4, y1: row.y, x2: lifeline - 9, y2: row.y, stroke: color, "stroke-dasharray": "2 2" }),
    );
  } else if (m.tone === "late" || m.tone === "held" || m.tone === "cancel") {
    parts.push(el("circle", { cx: lifeline, cy: row.y, r: 3.5, fill: color }));
    parts.push(el("line", { x1: edge + 4, y1: row.y, x2: lifeline - 5, y2: row.y, stroke: color, "stroke-dasharray": "2 2" }));
  } else {
    parts.push(el("line", { x1: edge + (side === "client" ? 4 : -4), y1: row.y, x2: lifeline + (side === "client" ? -14 : 14), y2: row.y, stroke: color, "stroke-opacity": 0.35 }));
  }
  parts.push(...lines);
  return el("g", { class: cls, "data-t": m.t.toFixed(3) }, parts.join(""));
}

function legend(y: number): string {
  const items: [string, string][] = [
    ["solid arrow", "request (bold label) or notification (teal), drawn when it left its sender"],
    ["dashed arrow", "reply (result or error); ids are per direction: client #3 and server #0 are unrelated"],
    ["amber band", "a frame waiting in the receiver's queue, from arrival to dispatch"],
    ["purple bar", "the client's receive loop held by an inbound request (serial model only)"],
    ["teal bar", "the client's elicitation callback running"],
    ["red", "timeout (✕), deadlock (○: the wait-for cycle), late reply, a withdrawn form its callback sees (✕)"],
    ["orange", "a cancellation sent or handed to the SDK; a tool whose call was cancelled"],
    ["≈ break", "a long gap drawn shorter; the times written on the left are always the real ones"],
  ];
  return el(
    "g",
    { class: "legend" },
    [
      text(X_TIME + 10, y, "How to read it", { "font-weight": "bold" }),
      ...items.map(([k, v], i) => text(X_TIME + 10, y + 16 + i * 14, `${k}: ${v}`, { fill: "#374151", "font-size": 10.5 })),
    ].join(""),
  );
}

export function renderSvg(run: SvgRun, context: SvgContext = {}): string {
  const frames = frameViews(run.events, run.wire);
  const notes = moments(run.events, frames);
  const { rows, breaks, bottom } = layout(frames, notes);
  const y = timeScale(rows, bottom);
  const serverSeen = run.events.some((e) => e.side === "server");
  const unseen = frames.some((f) => !f.sentSeen);
  const arrivalY = (f: FrameView) => (f.arrived === undefined || f.arrived - f.sent < FLAT_MS ? y(f.sent) : y(f.arrived));
  const height = bottom + 144;
  const out: string[] = [];

  // Header.
  const results = notes.filter((m) => m.kind === "result").map((m) => m.lines[0]).join(" · ");
  const peers = run.client && run.server && !(run.client === "ts1" && run.server === "ts1") ? ` · client ${run.client} · server ${run.server}` : "";
  const title = `${run.scenario} · ${run.dispatch}${peers} · ${run.transport} · repeat ${run.repeat}${context.onDeadlock === "break" ? " · --on-deadlock break" : ""}`;
  out.push(el("rect", { x: 0, y: 0, width: W, height, fill: "#ffffff" }));
  out.push(text(16, 26, title, { "font-size": 17, "font-weight": "bold" }));
  if (context.dispatchMeaning) out.push(text(16, 46, `${run.dispatch}: ${context.dispatchMeaning}`, { "font-size": 12, fill: "#374151" }));
  out.push(text(16, 64, results ? `results: ${results}` : "results: none recorded", { "font-size": 12, "font-weight": "bold" }));
  out.push(
    text(16, 81, `${run.wire.length} frames on the wire, one arrow each · times in ms since the session started${context.sdk ? ` · @modelcontextprotocol/sdk ${context.sdk}` : ""}${unseen ? " · the server is another process: its frames are drawn when the client read them" : ""}`, {
      "font-size": 10.5,
      fill: "#6b7280",
    }),
  );

  // Lifelines.
  for (const side of ["client", "server"] as const) {
    const label = side === "client" ? "Client" : "Server";
    const sub = side === "client" ? "SDK Client + callback" : serverSeen ? "McpServer (calculate)" : "McpServer (child process)";
    out.push(
      el(
        "g",
        { class: `lifeline ${side}` },
        [
          el("rect", { x: X[side] - 90, y: 94, width: 180, height: 38, rx: 5, fill: "#f3f4f6", stroke: "#374151" }),
          text(X[side], 110, label, { "text-anchor": "middle", "font-weight": "bold", "font-size": 13 }),
          text(X[side], 125, sub, { "text-anchor": "middle", "font-size": 10, fill: "#4b5563" }),
          el("line", { x1: X[side], y1: 132, x2: X[side], y2: bottom, stroke: "#6b7280", "stroke-width": 1.2 }),
        ].join(""),
      ),
    );
  }
  out.push(text(X_TIME, 146, "t (ms)", { "text-anchor": "end", "font-size": 10, fill: "#6b7280" }));

  // Spans: callbacks, loop held, frames held in a queue.
  for (const s of callbackSpans(run.events)) {
    const y1 = y(s.from);
    const y2 = s.to === undefined ? bottom : y(s.to);
    out.push(el("rect", { class: "callback-span", x: X.client - 13, y: y1, width: 5, height: Math.max(2, y2 - y1), fill: COLOR.callback, "fill-opacity": 0.55 }));
  }
  for (const s of loopSpans(run.events)) {
    const y1 = y(s.from);
    const y2 = s.to === undefined ? bottom : y(s.to);
    out.push(
      el("rect", { class: "loop-held", x: X[s.side] - 4, y: y1, width: 8, height: Math.max(2, y2 - y1), fill: COLOR.loop, "fill-opacity": 0.45, stroke: COLOR.loop }, el("title", {}, esc(`${s.side} loop held by ${s.text}`))),
    );
  }
  const frameRowYs = rows.filter((r) => r.kind === "frame").map((r) => r.y);
  // Frames held at the same time stand side by side, each in the first free column.
  const bands = frames
    .filter((f) => f.held && f.arrived !== undefined)
    .map((f) => ({ f, y1: arrivalY(f), y2: f.dispatched === undefined ? bottom : y(f.dispatched), column: 0 }));
  const columnEnds: number[] = [];
  for (const band of bands) {
    band.column = columnEnds.findIndex((end) => end <= band.y1);
    if (band.column < 0) band.column = columnEnds.length;
    columnEnds[band.column] = band.y2;
  }
  const single = columnEnds.length <= 1;
  const labelled = new Set<Break>();
  for (const { f, y1, y2, column } of bands) {
    const width = single ? 22 : 9;
    const x = f.to === "client" ? X.client + 8 + column * (width + 3) : X.server - 8 - (column + 1) * (width + 3);
    const waited = f.dispatched === undefined ? "never dispatched" : `${(f.dispatched - f.arrived!).toFixed(1)} ms`;
    const parts = [
      el("title", {}, esc(`${f.text} held in the ${f.to} queue behind ${String(f.held!.behindMethod)} #${String(f.held!.behindId)}: ${waited}`)),
      el("rect", { x, y: y1, width, height: Math.max(2, y2 - y1), fill: "#f59e0b", "fill-opacity": 0.3, stroke: COLOR.held, "stroke-dasharray": "3 2" }),
    ];
    // The label goes in a break the band crosses (nothing else is drawn there), else mid-band if
    // free; with several bands side by side, only in a break, one label per break.
    const cut = breaks.find((b) => b.y >= y1 && b.y + BREAK_H <= y2 && !labelled.has(b));
    const mid = cut ? cut.y + BREAK_H / 2 : (y1 + y2) / 2;
    if (cut || (single && frameRowYs.every((ry) => Math.abs(ry - mid) > 22))) {
      if (cut) labelled.add(cut);
      const lx = X.client + 8 + columnEnds.length * (width + 3) + 8;
      parts.push(text(lx, mid - 3, `${f.text} held in ${f.to} queue`, { fill: COLOR.held, "font-weight": "bold" }));
      parts.push(text(lx, mid + 11, `${waited} (${f.arrived!.toFixed(1)} → ${f.dispatched?.toFixed(1) ?? "end"} ms)`, { fill: COLOR.held }));
    }
    out.push(el("g", { class: "held-band", "data-frame": String(f.index) }, parts.join("")));
  }

  // Rows: the time of each, then arrows and notes.
  for (const row of rows) out.push(text(X_TIME, row.y + 4, row.t.toFixed(1), { "text-anchor": "end", "font-size": 10, fill: "#6b7280" }));
  for (const row of rows) {
    if (row.kind === "frame") out.push(arrow(row.frame, y(row.frame.sent), arrivalY(row.frame)));
    else out.push(note(row));
  }

  // Breaks: drawn over everything, each saying how long the cut gap really was.
  for (const b of breaks) {
    const z1 = b.y + 12;
    const z2 = b.y + BREAK_H - 12;
    const zig = (yy: number) => {
      const pts: string[] = [];
      for (let x = X_TIME + 6, i = 0; x <= W - 16; x += 8, i++) pts.push(`${n(x)},${n(yy + (i % 2 ? 4 : -4))}`);
      return el("polyline", { points: pts.join(" "), fill: "none", stroke: "#9ca3af", "stroke-width": 1.2 });
    };
    out.push(
      el(
        "g",
        { class: "break", "data-ms": b.ms.toFixed(3) },
        [
          zig(z1),
          zig(z2),
          text(NOTE.client.edge, (z1 + z2) / 2 + 4, `≈ ${b.ms.toFixed(1)} ms pass here (drawn shorter)`, { "text-anchor": "end", "font-style": "italic", fill: "#4b5563" }),
        ].join(""),
      ),
    );
  }

  out.push(legend(bottom + 24));
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${n(height)}" viewBox="0 0 ${W} ${n(height)}" role="img" aria-label="${esc(title)}">`,
    el("title", {}, esc(`${title}: sequence diagram from a real run`)),
    ...out,
    `</svg>`,
    "",
  ].join("\n");
}

export function svgFileName(scenario: string, dispatch: string, suffix: string, transport: string, repeat: number): string {
  return `${scenario}.${dispatch}${suffix}.${transport}-${repeat}.svg`;
}

/** One SVG per run of the case, next to its JSON in the run output directory. Returns the paths. */
export function writeRunSvgs(outDir: string, report: CaseReport, suffix: string): string[] {
  return report.runs.map((run) => {
    const path = join(outDir, svgFileName(report.scenario, report.column, suffix, run.transport, run.repeat));
    writeAtomic(path, renderSvg(run, { dispatchMeaning: report.dispatchMeaning, onDeadlock: report.onDeadlock, sdk: report.versions.sdk }));
    return path;
  });
}
