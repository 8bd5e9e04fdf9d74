// The report card as text, Markdown and SVG. Renderers only: every value comes from the card
// data (lab/cli/card.ts, lab/check/card.ts). One table per server peer; a column per client
// peer and loop model; a row per behaviour.
import { CARD_ROWS, ROW_SCENARIO, type CellValue, type RowId, type Tone } from "../check/card.js";

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
  differs: string[];
  ms: number;
  errors: string[];
}

export interface CardData {
  columns: CardColumn[];
  ok: boolean;
}

const label = (c: Pick<CardColumn, "client" | "loop">) => (c.loop === "serial" ? `${c.client} (serial model)` : c.client);

/** What a cell shows: its value; a pairing that fails to connect as expected says so. */
function shown(c: CardColumn, row: RowId, stable: boolean): { text: string; tone: Tone } {
  if (c.connectFails !== undefined && c.differs.length === 0) return { text: row === "protocol" ? `cannot connect: ${c.connectFails}` : "-", tone: "n/a" };
  if (c.differs.some((d) => d.startsWith("cannot run here") || d.startsWith("the pairing failed"))) {
    return { text: row === "protocol" ? `UNEXPECTED: ${c.differs[0]}` : "-", tone: "unexpected" };
  }
  const value = c.cells[row];
  if (!value) return { text: "-", tone: "n/a" };
  const wrong = c.differs.some((d) => d.startsWith(`${row}:`));
  return { text: `${wrong ? "UNEXPECTED: " : ""}${stable ? String(value.value) : value.text}`, tone: wrong ? "unexpected" : value.tone };
}

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
    }
  }
  return lines.join("\n");
}

// Okabe-Ito: told apart with any colour vision; each cell also says its value in words.
const TONE: Record<Tone, { fill: string; ink: string; word: string }> = {
  safe: { fill: "#56B4E9", ink: "#00263d", word: "safe" },
  unsafe: { fill: "#E69F00", ink: "#3d2600", word: "unsafe" },
  "n/a": { fill: "#e5e7eb", ink: "#374151", word: "n/a" },
  unexpected: { fill: "#000000", ink: "#ffffff", word: "unexpected" },
};
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function renderCardSvg(card: CardData): string {
  const rowH = 34;
  const colW = 170;
  const headW = 280;
  const parts: string[] = [];
  let y = 20;
  let width = headW;
  for (const server of servers(card)) {
    const cols = card.columns.filter((c) => c.server === server);
    width = Math.max(width, headW + cols.length * colW + 20);
    parts.push(`<text x="10" y="${y + 14}" font-weight="bold" font-size="15">server ${esc(server)}</text>`);
    y += 24;
    cols.forEach((c, i) => parts.push(`<text x="${headW + i * colW + 6}" y="${y + 14}" font-size="12" font-weight="bold">${esc(label(c))}</text>`));
    y += 22;
    for (const row of CARD_ROWS) {
      parts.push(`<text x="10" y="${y + 21}" font-size="12">${esc(row.title)}</text>`);
      cols.forEach((c, i) => {
        const { text, tone } = shown(c, row.id, true);
        const t = TONE[tone];
        const short = text.length > 26 ? `${text.slice(0, 25)}…` : text;
        parts.push(
          `<g class="cell ${tone.replace("/", "")}"><title>${esc(`${label(c)} · ${row.title}: ${text} (${t.word})`)}</title>`,
          `<rect x="${headW + i * colW}" y="${y}" width="${colW - 4}" height="${rowH - 4}" rx="4" fill="${t.fill}"/>`,
          `<text x="${headW + i * colW + 6}" y="${y + 13}" font-size="10.5" fill="${t.ink}">${esc(short)}</text>`,
          `<text x="${headW + i * colW + 6}" y="${y + 25}" font-size="9" fill="${t.ink}">${t.word}</text></g>`,
        );
      });
      y += rowH;
    }
    y += 16;
  }
  const legend = (Object.keys(TONE) as Tone[]).map((tone, i) => `<rect x="${10 + i * 120}" y="${y}" width="14" height="14" fill="${TONE[tone].fill}"/><text x="${30 + i * 120}" y="${y + 12}" font-size="12">${TONE[tone].word}</text>`);
  y += 30;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y}" viewBox="0 0 ${width} ${y}" font-family="sans-serif"><rect width="100%" height="100%" fill="#fff"/>${parts.join("")}${legend.join("")}</svg>\n`;
}
