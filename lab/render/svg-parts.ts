// The pieces of the SVG sequence diagram (svg.ts): sizes and colours, XML escaping and
// elements, the layout of rows in time (with long gaps cut short behind a break), and the
// drawing of one arrow, one note and the legend. Pure functions of what they are given.
import type { FrameView, Moment, Tone } from "./story.js";
import { LONG_GAP_MS } from "./story.js";

export const W = 1120;
export const X_TIME = 62; // right edge of the time labels
export const X = { client: 470, server: 890 } as const;
export const NOTE = { client: { edge: X.client - 24, chars: 58 }, server: { edge: X.server + 16, chars: 32 } } as const;
export const TOP = 160;
export const FLAT_MS = 1;
export const MIN_STEP = 20;
export const LINE = 13;
export const SCALE = 5; // px per ms
export const BREAK_H = 72;
export const FONT = "DejaVu Sans, Helvetica, Arial, sans-serif";

export const COLOR: Record<Tone, string> = {
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

export const n = (v: number) => (Math.round(v * 10) / 10).toString();

export function attrs(a: Record<string, string | number | undefined>): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${typeof v === "number" ? n(v) : esc(v!)}"`)
    .join("");
}

export const el = (name: string, a: Record<string, string | number | undefined>, body?: string) =>
  body === undefined ? `<${name}${attrs(a)}/>` : `<${name}${attrs(a)}>${body}</${name}>`;

export const text = (x: number, y: number, content: string, a: Record<string, string | number | undefined> = {}) =>
  el("text", { x, y, "font-family": FONT, "font-size": 11, fill: "#111827", ...a }, esc(content));

export function wrap(line: string, chars: number): string[] {
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

export type Row =
  | { t: number; seq: number; kind: "frame"; frame: FrameView; y: number; need: number }
  | { t: number; seq: number; kind: "moment"; moment: Moment; lines: string[]; y: number; need: number };

export interface Break {
  y: number;
  ms: number;
}

export function layout(frames: FrameView[], notes: Moment[]): { rows: Row[]; breaks: Break[]; bottom: number } {
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
export function timeScale(rows: Row[], bottom: number): (t: number) => number {
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

export function arrow(f: FrameView, y1: number, y2: number): string {
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
  // The label says only what was known when the frame left: held, late and withdrawn happen
  // later and are drawn where they happen (band, note, cancel arrow); the tooltip tells all.
  const parts = f.answersWithdrawn ? " · answers a withdrawn request" : "";
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
        fill: color,
        "font-weight": f.label.frameType === "request" ? "bold" : undefined,
      }),
    ].join(""),
  );
}

export function note(row: Extract<Row, { kind: "moment" }>): string {
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

export function legend(y: number): string {
  const items: [string, string][] = [
    ["solid arrow", "request (bold label) or notification (teal), drawn when it left its sender"],
    ["dashed arrow", "reply (result or error); ids are per direction: client #3 and server #0 are unrelated"],
    ["amber band", "a frame waiting in the receiver's queue, from arrival to dispatch; or unread on a client's pipe, from the wire to its read"],
    ["solid purple bar", "the client's receive loop held by an inbound request (serial model only)"],
    ["dashed teal outline", "the client's elicitation callback running (left of the lifeline)"],
    ["red", "timeout (✕), deadlock (○: the wait-for cycle), late reply, a withdrawn form its callback sees (✕)"],
    ["orange", "a cancellation sent or handed to the SDK; a tool whose call was cancelled"],
    ["spacing", "rows keep their order; rows over 4 ms apart are 5 px per ms apart, closer ones a fixed minimum (the time on the left is real)"],
    ["≈ break", "a gap over 40 ms drawn shorter, stating its real length"],
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
