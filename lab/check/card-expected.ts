// The hand-written card: one file per pairing in expected/card/, each cell's value with the
// file's basis. The card run compares every cell with it, type-aware, and names each difference.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { EXPECTED_DIR } from "../paths.js";
import { differences } from "./compare.js";
import { CARD_ROWS, type CellValue, type RowId } from "./card.js";
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

/** Every cell that differs from the hand-written card, as "row: expected X, got Y". */
export function cardDifferences(expected: ExpectedCard | undefined, actual: Partial<Record<RowId, CellValue>>): string[] {
  if (!expected) return ["no expected card written for this pairing"];
  const out: string[] = [];
  for (const { id } of CARD_ROWS) {
    const want = expected.cells[id];
    const got = actual[id]?.value;
    if (want === undefined && got === undefined) continue;
    const diff = differences(want ?? null, got ?? null, `$.${id}`);
    if (diff.length > 0) out.push(`${id}: expected ${JSON.stringify(want ?? null)}, got ${JSON.stringify(got ?? null)}`);
  }
  return out;
}
