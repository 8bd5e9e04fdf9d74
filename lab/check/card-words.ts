// The README's compact card (issue 41): one column per question, each cell one word of a small
// fixed set. This file is the one place that maps a hand-written card value (expected/card/) to
// its word; a value it does not know is an error, so a new value cannot slip into the README as
// a wrong word. The full values stay on the card page (lab/render/card-summary.ts).
import { CANNOT_ARISE } from "./card-requests.js";
import { DECLARES_NO_FORM, FORM_ANSWERED, NO_FORM_REACHED } from "./card-form.js";
import type { RowId } from "./card.js";
import { ExpectationError } from "./expectations.js";

/** The words, worst first: where a client's servers disagree, the worst word is its cell. */
export const COMPACT_WORDS = ["deadlocks", "hangs", "one at a time", "cannot answer", "completes", "several", "n/a"] as const;
export type CompactWord = (typeof COMPACT_WORDS)[number];

/** What each word says, for the table's legend. */
export const WORD_MEANING: Record<CompactWord, string> = {
  deadlocks: "the nested request's reply was on the wire, unread, until a limit ended the wait (the card page says which)",
  hangs: "nothing but the lab's bound ended the wait: the nested request's reply unread on the wire, or the request never sent (a callback blocking its own loop)",
  "one at a time": "8 concurrent forms get their callbacks one after another",
  "cannot answer": "the client declares no such capability (a server that asks gets `unsupported`), or refuses the request without a callback",
  completes: "the form reaches its handler and is answered; the nested request gets its reply",
  several: "8 concurrent forms get several callbacks at once",
  "n/a": "the question cannot arise (no connection, no callback, no server-to-client request in 2026-07-28) or the client's card does not claim it",
};

/** The questions, a column each, with the card row each reads. */
export const COMPACT_QUESTIONS: readonly { row: RowId; title: string }[] = [
  { row: "formAnswered", title: "answers a form" },
  { row: "nested", title: "nested request in a form callback" },
  { row: "samplingNested", title: "in a sampling callback" },
  { row: "rootsNested", title: "in a roots callback" },
  { row: "peak", title: "callbacks at once" },
];

/** What a pairing shows for a row when its card says the session cannot connect, or gives no value. */
export const CANNOT_CONNECT = "cannot connect";
export const NO_VALUE = "-";

/** Every card value a question can hold, exactly, and its word. */
export const WORD_OF_VALUE: Readonly<Record<string, CompactWord>> = {
  [FORM_ANSWERED]: "completes",
  [DECLARES_NO_FORM]: "cannot answer",
  [NO_FORM_REACHED]: "n/a",
  completes: "completes",
  [String(CANNOT_ARISE.value)]: "n/a",
  "answered by the SDK, no callback": "n/a",
  "several at once": "several",
  "one at a time": "one at a time",
  [CANNOT_CONNECT]: "n/a",
  [NO_VALUE]: "n/a",
};

/**
 * Values that vary after a fixed start, and their word: a deadlock's words say which limit ended
 * the wait (issue 41, item 1), a refusal names its error code.
 */
export const WORD_OF_PREFIX: readonly (readonly [string, CompactWord])[] = [
  ["deadlocks", "deadlocks"],
  ["hangs", "hangs"],
  ["refused (", "cannot answer"],
];

/** Every word a value matches: exactly one for a known value. */
export function wordsOf(value: string): CompactWord[] {
  const exact = Object.hasOwn(WORD_OF_VALUE, value) ? [WORD_OF_VALUE[value]!] : [];
  return [...exact, ...WORD_OF_PREFIX.filter(([start]) => value.startsWith(start)).map(([, word]) => word)];
}

/** A card value's word; `where` names the card for the error a value without exactly one word raises. */
export function compactWord(value: string | number, where: string): CompactWord {
  const words = wordsOf(String(value));
  if (words.length === 1) return words[0]!;
  const why = words.length === 0 ? "has no word" : `has ${words.length} words (${words.join(", ")})`;
  throw new ExpectationError(`${where}: the card value ${JSON.stringify(value)} ${why} in the README's compact card (lab/check/card-words.ts)`);
}

/** One pairing as the compact card reads it: its server, whether it connects, its card's values. */
export interface CompactPairing {
  key: string;
  server: string;
  connectFails: string | undefined;
  expected: Partial<Record<RowId, string | number>>;
}

export interface CompactCell {
  word: CompactWord;
  /** each server's word and the full value it comes from */
  byServer: { server: string; word: CompactWord; value: string }[];
  /** the servers do not all give the same word: the cell needs a note */
  mixed: boolean;
}

/**
 * One client's cell for a question over its pairings: the word of the pairings where the question
 * arises (n/a only when it arises with none), the worst word if those disagree.
 */
export function compactCell(pairings: readonly CompactPairing[], row: RowId): CompactCell {
  const byServer = pairings.map((p) => {
    const value = p.connectFails !== undefined ? CANNOT_CONNECT : String(p.expected[row] ?? NO_VALUE);
    return { server: p.server, word: compactWord(value, `expected/card/${p.key}.json, ${row}`), value };
  });
  const words = new Set(byServer.map((s) => s.word));
  const word = COMPACT_WORDS.find((w) => w !== "n/a" && words.has(w)) ?? "n/a";
  return { word, byServer, mixed: words.size > 1 };
}
