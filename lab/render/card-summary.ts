// The report card's deadlock rows, and its sampling and roots rows, one line per client (and loop
// model): what the README shows.
// A renderer only: the values are the hand-written cards' (expected/card/), so the README says
// what `card` checks runs against. Where a client's servers agree, one value; else each value with the servers it holds for.
import { CARD_ROWS, type RowId } from "../check/card.js";
import type { CardData } from "./card.js";

export const SUMMARY_ROWS: readonly RowId[] = ["formAnswered", "nested", "peak", "ping"];
export const REQUEST_SUMMARY_ROWS: readonly RowId[] = ["samplingNested", "samplingPeak", "rootsNested"];

const label = (c: { client: string; loop: string }) => (c.loop === "serial" ? `${c.client} (serial model)` : c.client);

/** The value a column's card gives a row, in words; a pairing that cannot connect says so. */
function cellText(c: CardData["columns"][number], row: RowId): string {
  if (c.connectFails !== undefined) return "cannot connect";
  const value = c.expected[row];
  return value === undefined ? "-" : String(value);
}

/** The clients whose every card says the nested request deadlocks, under their SDK as shipped. */
export function deadlockingReleases(card: CardData, shipped: (client: string) => boolean): string[] {
  const clients = [...new Set(card.columns.filter((c) => c.loop === "sdk").map((c) => c.client))];
  return clients.filter((client) => {
    const cols = card.columns.filter((c) => c.client === client && c.loop === "sdk" && c.connectFails === undefined);
    return shipped(client) && cols.length > 0 && cols.every((c) => c.expected.nested === "deadlocks until the limit");
  });
}

/** The clients (as shipped) whose every connecting card gives the first row `value`'s verdict. */
export function clientsWhoseForms(card: CardData, answer: (value: unknown) => boolean): string[] {
  const clients = [...new Set(card.columns.filter((c) => c.loop === "sdk").map((c) => c.client))];
  return clients.filter((client) => {
    const cols = card.columns.filter((c) => c.client === client && c.loop === "sdk" && c.connectFails === undefined);
    return cols.length > 0 && cols.every((c) => answer(c.expected.formAnswered));
  });
}

/** The rows' table; with the deadlock rows, the releases that deadlock under every server. */
export function renderCardSummary(card: CardData, clientSdk: (client: string) => string, shipped: (client: string) => boolean = () => true, rows: readonly RowId[] = SUMMARY_ROWS): string {
  const titles = rows.map((id) => CARD_ROWS.find((r) => r.id === id)!.title);
  const out = [`| client | SDK | ${titles.join(" | ")} |`, `|---|---|${titles.map(() => "---").join("|")}|`];
  const keys = [...new Set(card.columns.map((c) => `${c.client}\u0000${c.loop}`))];
  for (const key of keys) {
    const cols = card.columns.filter((c) => `${c.client}\u0000${c.loop}` === key);
    const first = cols[0]!;
    const cells = rows.map((row) => {
      const values = cols.map((c) => ({ server: c.server, text: cellText(c, row) }));
      const distinct = [...new Set(values.map((v) => v.text))];
      const servers = (text: string) => values.filter((v) => v.text === text).map((v) => v.server).join(", ");
      const text = distinct.length === 1 ? distinct[0]! : distinct.map((d) => `${d} (${servers(d)})`).join(" · ");
      return text.replace(/\|/g, "\\|");
    });
    out.push(`| ${label(first)} | ${clientSdk(first.client)} | ${cells.join(" | ")} |`);
  }
  if (rows !== SUMMARY_ROWS) return out.join("\n");
  const named = (clients: string[]) => clients.map((c) => `${clientSdk(c)} (\`${c}\`)`).join(", ");
  const answer = clientsWhoseForms(card, (v) => v === "yes");
  const never = clientsWhoseForms(card, (v) => typeof v === "string" && v.startsWith("no: the client declares no form"));
  // names only: the table above gives each one's SDK, and the list stays one readable line
  if (answer.length) out.push("", "Clients that answer a form at all (they declare form elicitation and a form reaches their handler, against every server peer):", `${answer.map((c) => `\`${c}\``).join(", ")}.`);
  if (never.length) out.push("", "Clients that cannot answer a form at all (they declare no form elicitation, so a server that asks gets \`unsupported\`):", `${named(never)}.`);
  const releases = deadlockingReleases(card, shipped).map((c) => `${clientSdk(c)} (\`${c}\`)`);
  if (releases.length) out.push("", "Official SDK releases whose client, as shipped, deadlocks on a nested request against every server peer:", `${releases.join(", ")}.`);
  return out.join("\n");
}
