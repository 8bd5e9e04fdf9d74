// The generated parts of the documentation (the README's card block, notebooks/reference/card.md)
// are exactly what the hand-written cards say, and notebooks/reference/cli.md what the option data
// says; a changed card or option makes them stale.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { CLI_PAGE, generatedDocs } from "../lab/cli/docs.js";
import { commandSpec } from "../lab/cli/commands.js";
import { CARD_EXPECTED_DIR, cardFromExpected, loadExpectedCards } from "../lab/check/card-expected.js";
import { CLIENT_PEERS } from "../lab/peers/registry.js";
import { deadlockingReleases } from "../lab/render/card-summary.js";
import { PROJECT_ROOT } from "../lab/paths.js";
import { stackPageRows } from "../lab/check/python-stacks.js";
import { pythonDist } from "../lab/peers/installed.js";
import { GOOGLE_ADK_MCP1_ENV, LANGCHAIN_PY_ENV } from "../lab/peers/python/envs.js";
import { envStaleness } from "../lab/peers/python/setup.js";

test("every generated part of the docs is current (npx tsx lab/run.ts docs)", () => {
  const stale = generatedDocs().filter(({ file, text }) => readFileSync(file, "utf8") !== text).map(({ file }) => relative(PROJECT_ROOT, file));
  assert.equal(stale, []);
});

test("the releases that deadlock as shipped: from the cards, the reconfigured py-inline left out; a card that says otherwise drops one", () => {
  const cards = loadExpectedCards();
  const card = cardFromExpected(cards, { clients: CLIENT_PEERS.map((p) => p.name), servers: [] });
  const shipped = (client: string) => CLIENT_PEERS.find((p) => p.name === client)?.reconfigured === undefined;
  assert.equal(deadlockingReleases(card, shipped), ["py1", "py130", "pydantic-ai-mcp1", "langchain-py", "mcp-use", "google-adk-mcp1", "rust-mcp-sdk", "kotlin-0.14"]);
  assert.ok(deadlockingReleases(card, () => true).includes("py-inline"), "py-inline deadlocks too, but only as the lab configures it");
  const col = card.columns.find((c) => c.client === "py1" && c.server === "ts2")!;
  col.expected = { ...col.expected, nested: "completes" };
  assert.equal(deadlockingReleases(card, shipped), ["py130", "pydantic-ai-mcp1", "langchain-py", "mcp-use", "google-adk-mcp1", "rust-mcp-sdk", "kotlin-0.14"]);
});

/** The generated files made stale by changing one expected card's cells (in a copy of expected/card/). */
function staleAfter(cardFile: string, cells: Record<string, unknown>): string[] {
  const dir = mkdtempSync(join(tmpdir(), "lab-docs-"));
  try {
    cpSync(CARD_EXPECTED_DIR, dir, { recursive: true });
    const file = join(dir, cardFile);
    const card = JSON.parse(readFileSync(file, "utf8")) as { cells: Record<string, unknown> };
    writeFileSync(file, JSON.stringify({ ...card, cells: { ...card.cells, ...cells } }));
    return generatedDocs(dir).filter(({ file, text }) => readFileSync(file, "utf8") !== text).map(({ file }) => relative(PROJECT_ROOT, file)).sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a changed expected card makes the README's block and the card page stale", () => {
  const stale = staleAfter("ts1.sdk.ts1.json", { nested: "deadlocks until the SDK's request limit", ping: "answered only after the callback answers" });
  assert.equal(stale, ["README.md", "notebooks/reference/card.md"]);
});

test("the Python stacks page: a changed framework card makes it stale; its versions and pins are the venvs' own", () => {
  assert.equal(staleAfter("langchain-py.sdk.ts1.json", { nested: "completes" }), ["README.md", "notebooks/reference/card.md", "notebooks/reference/python-stacks.md"]);
  const rows = stackPageRows(loadExpectedCards());
  const row = (peer: string) => rows.find((r) => r.peer === peer)!;
  for (const { peer, env } of [{ peer: "google-adk-mcp1", env: GOOGLE_ADK_MCP1_ENV }, { peer: "langchain-py", env: LANGCHAIN_PY_ENV }]) {
    if (envStaleness(env) !== undefined) continue; // a venv not built reads "not installed": nothing to compare
    assert.equal(row(peer).mcpResolved, pythonDist(env, "mcp")().installed);
  }
  assert.match(row("google-adk-mcp1").verdict, /^deadlocks/);
  assert.match(row("google-adk").verdict, /^completes/);
  assert.match(row("langchain-py").todo, /none yet/);
});

test("a changed option makes notebooks/reference/cli.md stale, and only it; the page shows each option's help", () => {
  const soak = commandSpec("soak")!;
  const runs = soak.options.find((o) => o.name === "runs")!;
  const page = generatedDocs().find(({ file }) => file === CLI_PAGE)!.text;
  assert.ok(page.includes(`| \`--runs N\` | ${runs.help}`), "the soak's --runs row");
  const saved = runs.default;
  runs.default = "11";
  try {
    const stale = generatedDocs().filter(({ file, text }) => readFileSync(file, "utf8") !== text).map(({ file }) => relative(PROJECT_ROOT, file));
    assert.equal(stale, ["notebooks/reference/cli.md"]);
  } finally {
    runs.default = saved;
  }
});

test.run();
