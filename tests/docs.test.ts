// The generated parts of the documentation (the README's card block, notebooks/reference/card.md)
// are exactly what the hand-written cards say; a changed card makes them stale.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { generatedDocs } from "../lab/cli/docs.js";
import { CARD_EXPECTED_DIR } from "../lab/check/card-expected.js";
import { PROJECT_ROOT } from "../lab/paths.js";

test("every generated part of the docs is current (npx tsx lab/run.ts docs)", () => {
  const stale = generatedDocs().filter(({ file, text }) => readFileSync(file, "utf8") !== text).map(({ file }) => relative(PROJECT_ROOT, file));
  assert.equal(stale, []);
});

test("a changed expected card makes the README's block and the card page stale", () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-docs-"));
  try {
    cpSync(CARD_EXPECTED_DIR, dir, { recursive: true });
    const file = join(dir, "ts1.sdk.ts1.json");
    const card = JSON.parse(readFileSync(file, "utf8")) as { cells: Record<string, unknown> };
    card.cells.nested = "deadlocks until the limit";
    card.cells.ping = "answered only after the callback answers";
    writeFileSync(file, JSON.stringify(card));
    const stale = generatedDocs(dir).filter(({ file, text }) => readFileSync(file, "utf8") !== text).map(({ file }) => relative(PROJECT_ROOT, file));
    assert.equal(stale.sort(), ["README.md", "notebooks/reference/card.md"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
