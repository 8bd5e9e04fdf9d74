// The report card as text, Markdown and SVG. Renderers only: every value comes from the card
// data (lab/cli/card.ts, lab/check/card.ts). One table per server peer; a column per client
// peer and loop model; a row per behaviour.
import { CARD_ROWS, ROW_SCENARIO, type RowId } from "../check/card.js";
import { type CellValue, type Tone } from "../check/card-cell.js";
import { REAL_SERIAL_CLIENTS, REAL_SERIAL_SDK, type ModelDifference } from "../check/card-model.js";
import type { CardDifference } from "../check/card-expected.js";

export interface CardColumn {
  key: string;
  client: string;
  loop: string;
  server: string;
  sdk: string;
  cells: Partial<Record<RowId, CellValue>>;
  expected: Partial<Record<RowId, string | number>>;
  connectFails: string | undefined;
  /** cells (or the pairing) that differ from the hand-written card */
  differs: CardDifference[];
  ms: number;
  errors: string[];
}

export interface CardData {
  columns: CardColumn[];
  ok: boolean;
  /** pairings asked for that no hand-written card claims: named, not run */
  unclaimed?: string[];
  /** where a serial model column differs from a real serial client (py1, kotlin-0.14), and why */
  model?: ModelDifference[];
}

const label = (c: Pick<CardColumn, "client" | "loop">) => (c.loop === "serial" ? `${c.client} (serial model)` : c.client);

/** What a cell shows: its value; a pairing that fails to connect as expected says so. */
function shown(c: CardColumn, row: RowId, stable: boolean): { text: string; tone: Tone } {
  if (c.connectFails !== undefined && c.differs.length === 0) return { text: row === "protocol" ? `cannot connect: ${c.connectFails}` : "-", tone: "n/a" };
  const whole = c.differs.find((d) => d.kind === "cannot-run" || d.kind === "failed");
  if (whole) {
    return { text: row === "protocol" ? `UNEXPECTED: ${whole.why}` : "-", tone: "unexpected" };
  }
  const value = c.cells[row];
  if (!value) return { text: "-", tone: "n/a" };
  const wrong = c.differs.some((d) => d.row === row);
  return { text: `${wrong ? "UNEXPECTED: " : ""}${stable ? String(value.value) : value.text}`, tone: wrong ? "unexpected" : value.tone };
}

const title = (row: RowId) => CARD_ROWS.find((r) => r.id === row)?.title ?? row;
const servers = (card: CardData) => [...new Set(card.columns.map((c) => c.server))];

export function renderCardMarkdown(card: CardData, options: { links: boolean }): string {
  const out: string[] = [];
  for (const server of servers(card)) {
    const cols = card.columns.filter((c) => c.server === server);
    out.push(`**server ${server}**`, "", `| | ${cols.map(label).join(" | ")} |`, `|---|${cols.map(() => "---").join("|")}|`);
    for (const row of CARD_ROWS) {
      const cells = cols.map((c) => {
        const { text } = shown(c, row.id, !options.links);
        return options.links && c.cells[row.id] ? `[${text.replace(/\|/g, "\\|")}](card/${c.key}.${ROW_SCENARIO[row.id]}.json)` : text.replace(/\|/g, "\\|");
      });
      out.push(`| ${row.title} | ${cells.join(" | ")} |`);
    }
    const notes = (card.model ?? []).filter((d) => d.server === server);
    if (notes.length) out.push("", `Where the serial model differs from the real serial clients (${REAL_SERIAL_CLIENTS.map((c) => `${c}: ${REAL_SERIAL_SDK[c]}`).join("; ")}) against server ${server}:`, "");
    for (const d of notes) out.push(`- ${d.model} (serial model) vs ${d.real}, ${title(d.row)}: model "${d.actual}", ${d.real} "${d.expected}"${d.state === "unexplained" ? " (UNEXPLAINED)" : ""}: ${d.why}`);
    out.push("");
  }
  return out.join("\n");
}

export function renderCardText(card: CardData): string {
  const lines: string[] = [];
  for (const server of servers(card)) {
    const cols = card.columns.filter((c) => c.server === server);
    lines.push(`== report card · server ${server} ==`);
    for (const c of cols) {
      lines.push(`  ${label(c)}  (${c.sdk}; ${c.ms} ms)${c.differs.length ? "  DIFFERS" : ""}`);
      for (const row of CARD_ROWS) lines.push(`    ${row.title.padEnd(46)} ${shown(c, row.id, false).text}`);
      for (const d of (card.model ?? []).filter((m) => m.server === c.server && m.model === c.client && c.loop === "serial")) {
        lines.push(`      ${d.state === "unexplained" ? "UNEXPLAINED" : `model ≠ ${d.real}`} · ${title(d.row)}: ${d.real} (${REAL_SERIAL_SDK[d.real].replace(/^the /, "")}) "${d.expected}"`);
      }
    }
  }
  return lines.join("\n");
}

// Okabe-Ito: told apart with any colour vision; each cell also says its value in words.
const TONE: Record<Tone | "server", { fill: string; ink: string; word: string }> = {
  safe: { fill: "#56B4E9", ink: "#00263d", word: "safe" },
  unsafe: { fill: "#E69F00", ink: "#3d2600", word: "unsafe" },
  "n/a": { fill: "#e5e7eb", ink: "#374151", word: "n/a" },
  server: { fill: "#ffffff", ink: "#1f2937", word: "the server's behaviour" },
  unexpected: { fill: "#000000", ink: "#ffffff", word: "unexpected" },
};
/**
 * Rows that tell what the SERVER does (withdraw a form, handle a late answer, judge a form
 * answer): in a client's column their colour would blame the client, so they are drawn
 * uncoloured, their word saying whose behaviour it is and whether it is safe.
 */
export const SERVER_ROWS: readonly RowId[] = ["cancelWithdraws", "lateAnswer", "formContract"];
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Lines of at most `chars` characters, broken at spaces (a longer word is broken where it must). */
export function wrapText(text: string, chars: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (let word of text.split(/\s+/).filter(Boolean)) {
    while (word.length > chars) {
      if (line) lines.push(line), (line = "");
      lines.push(word.slice(0, chars));
      word = word.slice(chars);
    }
    if (line && line.length + 1 + word.length > chars) lines.push(line), (line = word);
    else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.length ? lines : [""];
}

// DejaVu Sans (the font the lab renders with) is wide: 0.62 em a character covers its widest text.
const EM = 0.62;
const fits = (px: number, size: number) => Math.max(4, Math.floor(px / (size * EM)));

/** The card as SVG, about 1400 px wide: every text wrapped inside its cell, nothing cut. */
export function renderCardSvg(card: CardData): string {
  const W = 1400;
  const headW = 250;
  const font = { head: 12, cell: 11, word: 9.5, row: 12 };
  const lineH = { cell: 13, row: 15 };
  const parts: string[] = [];
  let y = 20;
  const textLines = (x: number, y0: number, lines: string[], size: number, step: number, a = "") =>
    lines.map((l, k) => `<text x="${x}" y="${y0 + k * step}" font-size="${size}"${a}>${esc(l)}</text>`).join("");
  // At most BAND clients side by side: past that a column is too narrow for its words, so a server's
  // clients are drawn in bands of columns one under the other.
  const BAND = 8;
  const bands = servers(card).flatMap((server) => {
    const all = card.columns.filter((c) => c.server === server);
    return Array.from({ length: Math.ceil(all.length / BAND) }, (_, k) => ({ server, cols: all.slice(k * BAND, (k + 1) * BAND), part: all.length > BAND ? ` (clients ${k * BAND + 1}-${Math.min(all.length, (k + 1) * BAND)} of ${all.length})` : "" }));
  });
  for (const { server, cols, part } of bands) {
    const colW = Math.floor((W - headW - 10) / BAND);
    parts.push(`<text x="10" y="${y + 14}" font-weight="bold" font-size="15">server ${esc(server)}${esc(part)}</text>`);
    y += 26;
    const heads = cols.map((c) => wrapText(label(c), fits(colW - 12, font.head)));
    const headH = Math.max(...heads.map((h) => h.length)) * 15 + 6;
    heads.forEach((h, i) => parts.push(textLines(headW + i * colW + 6, y + 12, h, font.head, 15, ` font-weight="bold"`)));
    y += headH;
    for (const row of CARD_ROWS) {
      const server = SERVER_ROWS.includes(row.id);
      const title = wrapText(`${row.title}${server ? " (server)" : ""}`, fits(headW - 20, font.row));
      const cells = cols.map((c) => {
        const { text, tone } = shown(c, row.id, false);
        const look = TONE[server && tone !== "unexpected" && tone !== "n/a" ? "server" : tone];
        const word = look === TONE.server ? `server: ${TONE[tone].word}` : look.word;
        return { c, text, tone, look, word, lines: wrapText(text, fits(colW - 16, font.cell)) };
      });
      const h = Math.max(title.length * lineH.row, ...cells.map((x) => x.lines.length * lineH.cell + 14)) + 10;
      parts.push(`<g class="row-title">${textLines(10, y + 16, title, font.row, lineH.row)}</g>`);
      cells.forEach(({ c, text, tone, look, word, lines }, i) => {
        const x = headW + i * colW;
        parts.push(
          `<g class="cell ${tone.replace("/", "")}${look === TONE.server ? " server" : ""}"><title>${esc(`${label(c)} · ${row.title}: ${text} (${word})`)}</title>`,
          `<rect x="${x}" y="${y}" width="${colW - 4}" height="${h - 4}" rx="4" fill="${look.fill}"${look === TONE.server ? ` stroke="#6b7280" stroke-dasharray="3 2"` : ""}/>`,
          `<g fill="${look.ink}">${textLines(x + 6, y + 14, lines, font.cell, lineH.cell)}`,
          `<text x="${x + 6}" y="${y + 14 + lines.length * lineH.cell}" font-size="${font.word}" font-style="italic">${esc(word)}</text></g></g>`,
        );
      });
      y += h;
    }
    y += 16;
  }
  const keys = ["safe", "unsafe", "n/a", "server", "unexpected"] as const;
  const legend = keys.map((tone, i) => `<rect x="${10 + i * 280}" y="${y}" width="14" height="14" fill="${TONE[tone].fill}" stroke="#6b7280"/><text x="${30 + i * 280}" y="${y + 12}" font-size="12">${TONE[tone].word}${tone === "server" ? " (rows marked server)" : ""}</text>`);
  y += 30;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${y}" viewBox="0 0 ${W} ${y}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif"><rect width="100%" height="100%" fill="#fff"/>${parts.join("")}${legend.join("")}</svg>\n`;
}
