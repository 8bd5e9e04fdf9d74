// The hand-written card: one file per pairing in expected/card/, each cell's value with the
// file's basis. The card run compares every cell with it, type-aware, and names each difference.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { EXPECTED_DIR } from "../paths.js";
import { differences } from "./compare.js";
import { CARD_ROWS, type RowId } from "./card.js";
import { type CellValue } from "./card-cell.js";
import { ExpectationError, parseExpectation } from "./expectations.js";

export const CARD_EXPECTED_DIR = join(EXPECTED_DIR, "card");

const rowIds = CARD_ROWS.map((r) => r.id) as [RowId, ...RowId[]];

export const ExpectedCard = z.strictObject({
  client: z.string(),
  loop: z.enum(["sdk", "serial"]),
  server: z.string(),
  /** where the values come from: the protocol, the SDK source lines */
  basis: z.string().min(1),
  /** absent: the pairing connects. Otherwise a text the session's error must contain. */
  connectFails: z.string().optional(),
  cells: z.partialRecord(z.enum(rowIds), z.union([z.string(), z.number()])),
});
export type ExpectedCard = z.infer<typeof ExpectedCard>;

export const cardKey = (c: { client: string; loop: string; server: string }) => `${c.client}.${c.loop}.${c.server}`;

export function loadExpectedCards(dir = CARD_EXPECTED_DIR): Map<string, ExpectedCard> {
  const cards = new Map<string, ExpectedCard>();
  if (!existsSync(dir)) return cards;
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".json")).sort()) {
    const file = join(dir, name);
    const card = parseExpectation(readFileSync(file, "utf8"), file, ExpectedCard);
    if (`${cardKey(card)}.json` !== name) throw new ExpectationError(`${file}: names ${cardKey(card)}, but its file name says ${name}`);
    cards.set(cardKey(card), card);
  }
  return cards;
}

/**
 * One way a pairing's card is not what its hand-written file says: a cell (row set), or the
 * whole pairing: no card, cannot run here, a connection that should have failed, a failed run.
 */
export interface CardDifference {
  kind: "cell" | "no-card" | "cannot-run" | "connect" | "failed";
  row?: RowId;
  path: string;
  expected: unknown;
  actual: unknown;
  why: string;
}

/** One line for a terminal: the row (or what failed), then expected and actual. */
export const differenceText = (d: CardDifference): string =>
  d.kind === "cell" ? `${d.row}: expected ${JSON.stringify(d.expected)}, got ${JSON.stringify(d.actual)}` : d.why;

/**
 * A card that says the session fails to connect: does one of the run's errors carry its phrase
 * (a phrase of the SDK's own error message, as the hand-written card quotes it)?
 */
export function connectDifferences(expected: ExpectedCard, errors: readonly string[]): CardDifference[] {
  if (expected.connectFails === undefined) return [];
  if (errors.some((e) => e.includes(expected.connectFails!))) return [];
  const got = errors.join("; ") || "no error";
  return [{ kind: "connect", path: "$.connectFails", expected: expected.connectFails, actual: got, why: `expected the session to fail with "${expected.connectFails}", got: ${got}` }];
}

/** Every cell that differs from the hand-written card, as data. */
export function cardDifferences(expected: ExpectedCard | undefined, actual: Partial<Record<RowId, CellValue>>): CardDifference[] {
  if (!expected) return [{ kind: "no-card", path: "$", expected: "a hand-written card", actual: null, why: "no expected card written for this pairing" }];
  const out: CardDifference[] = [];
  for (const { id } of CARD_ROWS) {
    const want = expected.cells[id];
    const got = actual[id]?.value;
    if (want === undefined && got === undefined) continue;
    const diff = differences(want ?? null, got ?? null, `$.${id}`);
    if (diff.length > 0) out.push({ kind: "cell", row: id, path: `$.cells.${id}`, expected: want ?? null, actual: got ?? null, why: "the run's cell is not the hand-written one" });
  }
  return out;
}

/** The card as the hand-written files say it (what the README shows; `card` checks runs against it). */
export function cardFromExpected(cards: Map<string, ExpectedCard>, order: { clients: string[]; servers: string[] }): { columns: { key: string; client: string; loop: string; server: string; sdk: string; cells: Partial<Record<RowId, CellValue>>; expected: ExpectedCard["cells"]; connectFails: string | undefined; differs: CardDifference[]; ms: number; errors: string[] }[]; ok: boolean } {
  const rank = (list: string[], name: string) => (list.indexOf(name) === -1 ? list.length : list.indexOf(name));
  const sorted = [...cards.values()].sort(
    (a, b) => rank(order.servers, a.server) - rank(order.servers, b.server) || rank(order.clients, a.client) - rank(order.clients, b.client) || a.loop.localeCompare(b.loop),
  );
  return {
    ok: true,
    columns: sorted.map((c) => ({
      key: cardKey(c),
      client: c.client,
      loop: c.loop,
      server: c.server,
      sdk: "",
      cells: Object.fromEntries(Object.entries(c.cells).map(([row, value]) => [row, { value: value!, text: String(value), tone: "n/a" as const }])),
      expected: c.cells,
      connectFails: c.connectFails,
      differs: [],
      ms: 0,
      errors: [],
    })),
  };
}
