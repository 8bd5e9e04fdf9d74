// A self-contained SVG sequence diagram of one run: two lifelines (client, server), one arrow
// per wire frame at the time it left, and the held span (or a reply left unread on the pipe of a
// client in another process, unread.ts), timeout, deadlock and late reply marked.
// It only reads the timeline and the wire. No scripts, no external references, attributes only:
// it opens in any browser as it is.
//
// Time runs down. Every row is labelled with its real time (ms since the session started);
// an arrow's label says only what was known when its frame left. Rows further apart than 4 ms are spaced in proportion (5 px per ms); closer rows keep a
// minimum spacing so labels stay readable; a gap longer than 40 ms (the 500 ms timeout) is cut
// short and marked with a break that states how long it really was. An arrow is drawn flat
// when its frame arrived less than 1 ms after it left, and slanted to its arrival otherwise.
import type { TimelineEvent, WireFrame } from "../history/timeline.js";
import type { OutcomeKind } from "./outcome.js";
import { callbackSpans, frameViews, loopSpans, moments, type FrameView } from "./story.js";
import { arrow, BREAK_H, COLOR, el, esc, FLAT_MS, layout, legend, n, note, NOTE, text, timeScale, W, X, X_TIME, type Break } from "./svg-parts.js";

export { esc } from "./svg-parts.js";

/** What the SVG needs from a run: a SessionEvidence or a RunRecord will do. */
export interface SvgRun {
  scenario: string;
  loop: string;
  /** the peers (absent or ts1 against ts1: not shown) */
  client?: string;
  server?: string;
  transport: string;
  repeat: number;
  events: readonly TimelineEvent[];
  wire: readonly WireFrame[];
}

export interface SvgContext {
  loopMeaning?: string;
  onDeadlock?: string;
  sdk?: string;
  /** what happened and the verdict, in words (lab/render/outcome.ts) */
  outcome?: { words: string; kind: OutcomeKind; ok: boolean };
}

export function renderSvg(run: SvgRun, context: SvgContext = {}): string {
  const frames = frameViews(run.events, run.wire);
  const notes = moments(run.events, frames);
  const { rows, breaks, bottom } = layout(frames, notes);
  const y = timeScale(rows, bottom);
  const serverSeen = run.events.some((e) => e.side === "server");
  const unseen = frames.some((f) => !f.sentSeen);
  const arrivalY = (f: FrameView) => (f.arrived === undefined || f.arrived - f.sent < FLAT_MS ? y(f.sent) : y(f.arrived));
  const height = bottom + 160; // the legend: a title and nine lines
  const out: string[] = [];

  // Header.
  const results = notes.filter((m) => m.kind === "result").map((m) => m.lines[0]).join(" · ");
  const peers = run.client && run.server && !(run.client === "ts1" && run.server === "ts1") ? ` · client ${run.client} · server ${run.server}` : "";
  const title = `${run.scenario} · ${run.loop}${peers} · ${run.transport} · repeat ${run.repeat}${context.onDeadlock === "break" ? " · --on-deadlock break" : ""}`;
  out.push(el("rect", { x: 0, y: 0, width: W, height, fill: "#ffffff" }));
  out.push(text(16, 26, title, { "font-size": 17, "font-weight": "bold" }));
  if (context.loopMeaning) out.push(text(16, 46, `${run.loop}: ${context.loopMeaning}`, { "font-size": 12, fill: "#374151" }));
  const o = context.outcome;
  const said = o ? `${o.ok ? "PASS" : "FAIL"} · ${o.words} · ` : "";
  const ink = o?.kind === "completed" ? "#166534" : o?.kind === "deadlock" || o?.kind === "broken" ? "#9a3412" : o ? "#b91c1c" : "#111827";
  out.push(text(16, 64, `${said}${results ? `results: ${results}` : "results: none recorded"}`, { "font-size": 12, "font-weight": "bold", fill: ink }));
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
    // An outline, the loop's bar solid: told apart by shape as well as by colour.
    out.push(el("rect", { class: "callback-span", x: X.client - 17, y: y1, width: 7, height: Math.max(2, y2 - y1), fill: "#ffffff", stroke: COLOR.callback, "stroke-width": 1.6, "stroke-dasharray": "4 2" }));
  }
  for (const s of loopSpans(run.events)) {
    const y1 = y(s.from);
    const y2 = s.to === undefined ? bottom : y(s.to);
    out.push(
      el("rect", { class: "loop-held", x: X[s.side] - 4, y: y1, width: 8, height: Math.max(2, y2 - y1), fill: COLOR.loop, "fill-opacity": 0.85, stroke: COLOR.loop }, el("title", {}, esc(`${s.side} loop held by ${s.text}`))),
    );
  }
  const frameRowYs = rows.filter((r) => r.kind === "frame").map((r) => r.y);
  // Frames held at the same time stand side by side, each in the first free column: held in a
  // queue the lab records (serial model), or unread on the pipe of a client in another process.
  const bands = [
    ...frames
      .filter((f) => f.held && f.arrived !== undefined)
      .map((f) => ({
        f,
        y1: arrivalY(f),
        y2: f.dispatched === undefined ? bottom : y(f.dispatched),
        waited: f.dispatched === undefined ? "never dispatched" : `${(f.dispatched - f.arrived!).toFixed(1)} ms`,
        span: `${f.arrived!.toFixed(1)} ms → ${f.dispatched === undefined ? "end" : `${f.dispatched.toFixed(1)} ms`}`,
        kind: "held-band",
        where: `held in ${f.to} queue`,
        why: `behind ${String(f.held!.behindMethod)} #${String(f.held!.behindId)}`,
        column: 0,
      })),
    ...frames
      .filter((f) => f.unread)
      .map((f) => ({ f, u: f.unread }))
      .map(({ f, u }) => ({
        f,
        y1: y(u!.onPipe),
        y2: y(u!.read),
        waited: `${(u!.read - u!.onPipe).toFixed(1)} ms`,
        span: `${u!.onPipe.toFixed(1)} ms → ${u!.read.toFixed(1)} ms`,
        kind: "held-band unread-band",
        where: "unread on the client's pipe",
        why: `behind ${String(u!.behindMethod)} #${String(u!.behindId)}, read as ${u!.readBy} shows`,
        column: 0,
      })),
  ].sort((a, b) => a.y1 - b.y1);
  const columnEnds: number[] = [];
  for (const band of bands) {
    band.column = columnEnds.findIndex((end) => end <= band.y1);
    if (band.column < 0) band.column = columnEnds.length;
    columnEnds[band.column] = band.y2;
  }
  const single = columnEnds.length <= 1;
  const labelled = new Set<Break>();
  for (const { f, y1, y2, column, waited, span, where, why, kind } of bands) {
    const width = single ? 22 : 9;
    const x = f.to === "client" ? X.client + 8 + column * (width + 3) : X.server - 8 - (column + 1) * (width + 3);
    const parts = [
      el("title", {}, esc(`${f.text} ${where} ${why}: ${waited}`)),
      el("rect", { x, y: y1, width, height: Math.max(2, y2 - y1), fill: "#f59e0b", "fill-opacity": 0.3, stroke: COLOR.held, "stroke-dasharray": "3 2" }),
    ];
    // The label goes in a break the band crosses (nothing else is drawn there), else mid-band if
    // free; with several bands side by side, only in a break, one label per break.
    const cut = breaks.find((b) => b.y >= y1 && b.y + BREAK_H <= y2 && !labelled.has(b));
    const mid = cut ? cut.y + BREAK_H / 2 : (y1 + y2) / 2;
    if (cut || (single && frameRowYs.every((ry) => Math.abs(ry - mid) > 22))) {
      if (cut) labelled.add(cut);
      const lx = X.client + 8 + columnEnds.length * (width + 3) + 8;
      parts.push(text(lx, mid - 3, `${f.text} ${where}`, { fill: COLOR.held, "font-weight": "bold" }));
      parts.push(text(lx, mid + 11, `${waited} (${span})`, { fill: COLOR.held }));
    }
    out.push(el("g", { class: kind, "data-frame": String(f.index) }, parts.join("")));
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

export function svgFileName(scenario: string, loop: string, suffix: string, transport: string, repeat: number): string {
  return `${scenario}.${loop}${suffix}.${transport}-${repeat}.svg`;
}

