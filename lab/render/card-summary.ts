// The report card per client: the README's compact table (one word per question, from
// lab/check/card-words.ts) and the card page's table of every client's full values, one anchored
// row per client and loop model, that each README cell links to.
// A renderer only: the values are the hand-written cards' (expected/card/), so both say what
// `card` checks runs against.
import { CARD_ROWS, type RowId } from "../check/card.js";
import { COMPACT_QUESTIONS, COMPACT_WORDS, compactCell, compactWord, NO_VALUE, CANNOT_CONNECT, WORD_MEANING, type CompactCell } from "../check/card-words.js";
import type { CardColumn, CardData } from "./card.js";

/** The card page's per-client rows: the compact questions' full values, with sampling's fan-out and the ping. */
export const CLIENT_ROWS: readonly RowId[] = ["formAnswered", "nested", "samplingNested", "rootsNested", "peak", "samplingPeak", "ping"];

const label = (c: { client: string; loop: string }) => (c.loop === "serial" ? `${c.client} (serial model)` : c.client);
/** The card page's anchor for a client's row. */
export const clientAnchor = (c: { client: string; loop: string }) => `client-${c.client}${c.loop === "serial" ? "-serial" : ""}`;
const cellEscape = (text: string) => text.replace(/\|/g, "\\|");

/** The card's columns per client and loop model, in the card's order. */
function byClient(card: CardData, loops: readonly string[] = ["sdk", "serial"]): CardColumn[][] {
  const keys = [...new Set(card.columns.filter((c) => loops.includes(c.loop)).map((c) => `${c.client}\u0000${c.loop}`))];
  return keys.map((key) => card.columns.filter((c) => `${c.client}\u0000${c.loop}` === key));
}

/** The value a column's card gives a row, in words; a pairing that cannot connect says so. */
function cellText(c: CardColumn, row: RowId): string {
  if (c.connectFails !== undefined) return CANNOT_CONNECT;
  const value = c.expected[row];
  return value === undefined ? NO_VALUE : String(value);
}

/** One value where the servers agree, else each value with the servers it holds for. */
function fullValue(cols: CardColumn[], row: RowId): string {
  const values = cols.map((c) => ({ server: c.server, text: cellText(c, row) }));
  const distinct = [...new Set(values.map((v) => v.text))];
  const servers = (text: string) => values.filter((v) => v.text === text).map((v) => v.server).join(", ");
  return distinct.length === 1 ? distinct[0]! : distinct.map((d) => `${d} (${servers(d)})`).join(" · ");
}

/** The card page's table: every client (and loop model) in a row of its own, anchored. */
export function renderClientRows(card: CardData, clientSdk: (client: string) => string): string {
  const titles = CLIENT_ROWS.map((id) => CARD_ROWS.find((r) => r.id === id)!.title);
  const out = [`| client | SDK | ${titles.join(" | ")} |`, `|---|---|${titles.map(() => "---").join("|")}|`];
  for (const cols of byClient(card)) {
    const first = cols[0]!;
    const cells = CLIENT_ROWS.map((row) => cellEscape(fullValue(cols, row)));
    out.push(`| <a id="${clientAnchor(first)}"></a>${label(first)} | ${clientSdk(first.client)} | ${cells.join(" | ")} |`);
  }
  return out.join("\n");
}

/** The clients whose every card says the nested request deadlocks, under their SDK as shipped. */
export function deadlockingReleases(card: CardData, shipped: (client: string) => boolean): string[] {
  return byClient(card, ["sdk"]).flatMap((all) => {
    const cols = all.filter((c) => c.connectFails === undefined);
    const deadlocks = cols.length > 0 && cols.every((c) => c.expected.nested !== undefined && compactWord(c.expected.nested, c.key) === "deadlocks");
    return shipped(all[0]!.client) && deadlocks ? [all[0]!.client] : [];
  });
}

const SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹";
const mark = (n: number) => [...String(n)].map((d) => SUPERSCRIPT[Number(d)]).join("");

/** A mixed cell's note: each word with the servers that give it (why, for n/a). */
function mixedNote(title: string, cell: CompactCell): string {
  const words = COMPACT_WORDS.filter((w) => cell.byServer.some((s) => s.word === w));
  const parts = words.map((w) => {
    const servers = cell.byServer.filter((s) => s.word === w).map((s) => (w === "n/a" ? `${s.server} (${s.value})` : s.server));
    return `${w} against ${servers.join(", ")}`;
  });
  return `${title}: ${parts.join("; ")}`;
}

export interface CompactPeers {
  sdk(client: string): string;
  /** what the lab changed, for a client that is not its SDK as shipped */
  reconfigured(client: string): string | undefined;
  /** the link to a client's row on the card page */
  link(anchor: string): string;
}

/** The README's table: a row per client as shipped (sdk loop), a word per question, notes below. */
export function renderCompactCard(card: CardData, peers: CompactPeers): string {
  const notes: string[] = [];
  const noted = (text: string) => {
    if (!notes.includes(text)) notes.push(text);
    return mark(notes.indexOf(text) + 1);
  };
  const out = [`| client | SDK | ${COMPACT_QUESTIONS.map((q) => q.title).join(" | ")} |`, `|---|---|${COMPACT_QUESTIONS.map(() => "---").join("|")}|`];
  const used = new Set<string>();
  for (const cols of byClient(card, ["sdk"])) {
    const first = cols[0]!;
    const href = peers.link(clientAnchor(first));
    const cells = COMPACT_QUESTIONS.map(({ row, title }) => {
      const cell = compactCell(cols, row);
      used.add(cell.word);
      return `[${cell.word}](${href})${cell.mixed ? noted(mixedNote(title, cell)) : ""}`;
    });
    const changed = peers.reconfigured(first.client);
    const sdk = `${peers.sdk(first.client)}${changed ? noted(`${first.client} is not its SDK as shipped: ${changed}`) : ""}`;
    out.push(`| ${first.client} | ${cellEscape(sdk)} | ${cells.join(" | ")} |`);
  }
  const legend = COMPACT_WORDS.filter((w) => used.has(w)).map((w) => `**${w}**: ${WORD_MEANING[w]}`);
  out.push("", `Each word links to the client's full values. ${legend.join("; ")}.`, "");
  notes.forEach((text, i) => out.push(`- ${mark(i + 1)} ${text}`));
  const shipped = (client: string) => peers.reconfigured(client) === undefined;
  const releases = deadlockingReleases(card, shipped).map((c) => `${peers.sdk(c)} (\`${c}\`)`);
  if (releases.length) out.push(`- Official releases whose client, as shipped, deadlocks against every server peer: ${releases.join(", ")}.`);
  return out.join("\n");
}
