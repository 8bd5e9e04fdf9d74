// The learning path (issue #25): notebooks/README.md and the README's map list every notebook,
// in the order of their numbers; every notebook opens with "What you will learn" and closes
// with "What to do". A list out of order, a missing notebook or section is named.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../lab/paths.js";

const DIR = join(PROJECT_ROOT, "notebooks");
const NOTEBOOKS = readdirSync(DIR).filter((f) => /^\d{2}-.*\.md$/.test(f)).sort();

/** Problems with a list: the notebooks it links, in the order it first links them, against all of them. */
export function listProblems(text: string, prefix: string, notebooks: readonly string[]): string[] {
  const linked = [...text.matchAll(/\]\(([^)#]+\.md)\)/g)].map((m) => m[1]!).filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length));
  const order = [...new Set(linked.filter((l) => notebooks.includes(l)))];
  const missing = notebooks.filter((n) => !order.includes(n)).map((n) => `${n} is not listed`);
  const misplaced = order.filter((n, i) => i > 0 && n < order[i - 1]!).map((n) => `${n} is listed after ${order[order.indexOf(n) - 1]}`);
  return [...missing, ...misplaced];
}

/** Problems with a notebook's frame: its first section and its last. */
export function frameProblems(name: string, text: string): string[] {
  const headings = text.split("\n").filter((l) => /^## /.test(l));
  return [
    ...(headings[0] === "## What you will learn" ? [] : [`${name}: the first section is ${headings[0] ?? "missing"}, not "What you will learn"`]),
    ...(headings.at(-1) === "## What to do" ? [] : [`${name}: the last section is ${headings.at(-1) ?? "missing"}, not "What to do"`]),
  ];
}

test("there are notebooks, numbered from 01 without a gap", () => {
  assert.ok(NOTEBOOKS.length >= 10);
  assert.equal(NOTEBOOKS.map((n) => n.slice(0, 2)), NOTEBOOKS.map((_, i) => String(i + 1).padStart(2, "0")));
});

test("notebooks/README.md and the README's map list every notebook, in order", () => {
  assert.equal(listProblems(readFileSync(join(DIR, "README.md"), "utf8"), "", NOTEBOOKS), []);
  const map = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8").split("\n## Learn\n")[1]?.split("\n## ")[0] ?? "";
  assert.equal(listProblems(map, "notebooks/", NOTEBOOKS), []);
});

test("every notebook opens with 'What you will learn' and closes with 'What to do'", () => {
  assert.equal(NOTEBOOKS.flatMap((n) => frameProblems(n, readFileSync(join(DIR, n), "utf8"))), []);
});

test("the checks name a notebook listed out of order or left out, and a missing section", () => {
  const list = "[a](01-a.md) [c](03-c.md) [b](02-b.md)";
  assert.equal(listProblems(list, "", ["01-a.md", "02-b.md", "03-c.md", "04-d.md"]), ["04-d.md is not listed", "02-b.md is listed after 03-c.md"]);
  assert.equal(frameProblems("x.md", "# x\n\n## Setup\n\n## What to do\n"), ['x.md: the first section is ## Setup, not "What you will learn"']);
});

test.run();
