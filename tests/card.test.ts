// The report card's comparison and the README's card: a changed expected cell makes the card
// name that cell; the README shows exactly what the hand-written cards say.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cardDifferences, cardFromExpected, loadExpectedCards } from "../lab/check/card-expected.js";
import { nestedCells, peakCell, pingCell, protocolCell } from "../lab/check/card.js";
import { negotiatedProtocol } from "../lab/session/pipeline.js";
import { CLIENT_PEERS, SERVER_PEERS } from "../lab/peers/registry.js";
import { PROJECT_ROOT } from "../lab/paths.js";
import { renderCardMarkdown } from "../lab/render/card.js";
import { memoryRun } from "./support/runs.js";
import type { SessionEvidence } from "../lab/session/session.js";

const order = { clients: CLIENT_PEERS.map((p) => p.name), servers: SERVER_PEERS.map((p) => p.name) };

test("the README's card is the hand-written card", () => {
  const readme = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
  const block = /<!-- card:begin -->\n([\s\S]*?)<!-- card:end -->/.exec(readme)?.[1];
  assert.ok(block !== undefined, "the README has a card block");
  assert.is(block.trim(), renderCardMarkdown(cardFromExpected(loadExpectedCards(), order), { links: false }).trim());
});

test("cells from real runs (ts1, both loop models, in memory) match the expected card; one changed cell is named", async () => {
  const cards = loadExpectedCards();
  for (const loop of ["sdk", "serial"] as const) {
    const [nested, fanOut, liveness] = (await Promise.all(["nested", "fan-out", "liveness"].map((s) => memoryRun(s, loop)))) as [SessionEvidence, SessionEvidence, SessionEvidence];
    const at = (run: typeof nested) => ({ events: run.events, wire: run.wire, negotiatedProtocol: negotiatedProtocol(run) });
    const cells = { protocol: protocolCell(at(nested)), ...nestedCells(at(nested)), peak: peakCell(at(fanOut)), ping: pingCell(at(liveness)) };
    const want = cards.get(`ts1.${loop}.ts1`)!;
    assert.equal(cardDifferences(want, cells), []);
    const changed = { ...want, cells: { ...want.cells, peak: want.cells.peak === "one at a time" ? "several at once" : "one at a time" } };
    assert.equal(cardDifferences(changed, cells).map((d) => d.split(":")[0]), ["peak"]);
  }
});

test.run();
