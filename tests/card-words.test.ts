// The README's compact card (issue 41, item 8): every hand-written card value has exactly one
// word, an unknown value stops the generation, and each word links to its client's row of the
// card page.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CARD_PAGE, README_FILE, generatedDocs } from "../lab/cli/docs.js";
import { CARD_EXPECTED_DIR, loadExpectedCards } from "../lab/check/card-expected.js";
import { CANNOT_CONNECT, COMPACT_QUESTIONS, COMPACT_WORDS, compactWord, type CompactWord, NO_VALUE, WORD_OF_PREFIX, WORD_OF_VALUE, wordsOf } from "../lab/check/card-words.js";
import { ExpectationError } from "../lab/check/expectations.js";
import { CLIENT_PEERS } from "../lab/peers/registry.js";

const block = (readme: string) => readme.slice(readme.indexOf("<!-- card:begin -->"), readme.indexOf("<!-- card:end -->"));
const rowsOf = (text: string) => text.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| client "));
const wordsIn = (row: string) => [...row.matchAll(/\[([^\]]+)\]\(([^)]+)\)/g)].map((m) => ({ word: m[1]!, href: m[2]! }));

/** The generated docs from a copy of the cards, one of them changed by `edit`. */
function docsWith(file: string, edit: (cells: Record<string, unknown>) => void): { readme: string; page: string } {
  const dir = mkdtempSync(join(tmpdir(), "lab-words-"));
  try {
    cpSync(CARD_EXPECTED_DIR, dir, { recursive: true });
    const card = JSON.parse(readFileSync(join(dir, file), "utf8")) as { cells: Record<string, unknown> };
    edit(card.cells);
    writeFileSync(join(dir, file), JSON.stringify(card));
    const docs = generatedDocs(dir);
    return { readme: docs.find((d) => d.file === README_FILE)!.text, page: docs.find((d) => d.file === CARD_PAGE)!.text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("every value a hand-written card gives a question has exactly one word", () => {
  let seen = 0;
  for (const [key, card] of loadExpectedCards()) {
    for (const { row } of COMPACT_QUESTIONS) {
      const value = card.connectFails !== undefined ? CANNOT_CONNECT : String(card.cells[row] ?? NO_VALUE);
      assert.equal(wordsOf(value).length, 1, `${key} ${row}: ${value} -> ${wordsOf(value).join(", ") || "no word"}`);
      seen++;
    }
  }
  assert.ok(seen >= 500, `${seen} values`);
});

test("the mapping itself gives no value two words: no exact value starts like a prefix, no prefix starts another", () => {
  for (const value of Object.keys(WORD_OF_VALUE)) assert.equal(wordsOf(value).length, 1, value);
  for (const [a] of WORD_OF_PREFIX) for (const [b] of WORD_OF_PREFIX) if (a !== b) assert.not.ok(a.startsWith(b), `${a} starts with ${b}`);
  // planted: an exact value that a prefix also matches has two words, and is refused
  const map = WORD_OF_VALUE as Record<string, CompactWord>;
  map["deadlocks, planted"] = "completes";
  try {
    assert.throws(() => compactWord("deadlocks, planted", "x"), /has 2 words \(completes, deadlocks\)/);
  } finally {
    delete map["deadlocks, planted"];
  }
  for (const word of [...Object.values(WORD_OF_VALUE), ...WORD_OF_PREFIX.map(([, w]) => w)]) assert.ok(COMPACT_WORDS.includes(word), word);
});

test("any value that starts with 'deadlocks' is a deadlock, whatever limit ended the wait; a refusal is 'cannot answer' whatever its code", () => {
  for (const v of ["deadlocks until the limit", "deadlocks until the SDK's request limit", "deadlocks until the lab's backstop: no SDK limit on this path", "deadlocks until the callback's own limit"]) {
    assert.equal(compactWord(v, "t"), "deadlocks", v);
  }
  assert.equal(compactWord("refused (-32601), no callback", "t"), "cannot answer");
  assert.equal(compactWord("refused (-32600), no callback", "t"), "cannot answer");
  assert.equal(compactWord("one at a time", "t"), "one at a time");
});

test("an unknown value fails the generation in one line naming the card, the row and the value", () => {
  assert.throws(() => compactWord("fails without a reply on the wire", "x"), (e: unknown) => e instanceof ExpectationError);
  try {
    docsWith("go.sdk.ts2.json", (cells) => (cells.samplingNested = "fails without a reply on the wire"));
    assert.unreachable("the generation went on");
  } catch (error) {
    assert.instance(error, ExpectationError);
    const message = (error as Error).message;
    assert.ok(message.includes("go.sdk.ts2.json, samplingNested") && message.includes('"fails without a reply on the wire" has no word'), message);
    assert.not.ok(message.includes("\n"));
  }
});

test("the README's card is one table, a row per client as shipped, every cell a word that links to its client's row of the card page", () => {
  const docs = generatedDocs();
  const text = block(docs.find((d) => d.file === README_FILE)!.text);
  const page = docs.find((d) => d.file === CARD_PAGE)!.text;
  assert.equal(text.split("\n").filter((l) => l.startsWith("|---")).length, 1, "one table");
  const rows = rowsOf(text);
  const clients = [...new Set([...loadExpectedCards().values()].filter((c) => c.loop === "sdk").map((c) => c.client))];
  assert.equal(rows.map((r) => r.split(" | ")[0]!.slice(2)), CLIENT_PEERS.map((p) => p.name).filter((n) => clients.includes(n)));
  for (const row of rows) {
    const cells = wordsIn(row);
    assert.equal(cells.length, COMPACT_QUESTIONS.length, row);
    for (const { word, href } of cells) {
      assert.ok((COMPACT_WORDS as readonly string[]).includes(word), `${word} in ${row}`);
      const [file, anchor] = href.split("#");
      assert.equal(file, "notebooks/reference/card.md");
      assert.ok(page.includes(`<a id="${anchor}"></a>`), `the card page has no anchor ${anchor}`);
    }
  }
  const py1 = rows.find((r) => r.startsWith("| py1 |"))!;
  assert.equal(wordsIn(py1).map((c) => c.word), ["completes", "deadlocks", "deadlocks", "deadlocks", "one at a time"]);
});

test("where a client's servers differ, the cell takes the word where the question arises, or the worst, and a note names the servers", () => {
  const modern = rowsOf(block(generatedDocs().find((d) => d.file === README_FILE)!.text)).find((r) => r.startsWith("| ts2-modern |"))!;
  assert.ok(modern.includes("[completes](notebooks/reference/card.md#client-ts2-modern)¹"), modern);
  const { readme } = docsWith("py1.sdk.ts2.json", (cells) => (cells.nested = "completes"));
  const py1 = rowsOf(block(readme)).find((r) => r.startsWith("| py1 |"))!;
  assert.equal(wordsIn(py1)[1]!.word, "deadlocks", "one server completing does not hide the deadlock");
  const note = block(readme).split("\n").find((l) => l.startsWith("- ") && l.includes("nested request in a form callback"));
  assert.ok(note?.includes("deadlocks against ts1, py, py1, fastmcp; completes against ts2"), note);
  assert.not.ok(block(readme).includes("(`py1`)"), "py1 no longer deadlocks against every server");
});

test.run();
