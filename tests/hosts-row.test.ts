// The host row checker on real evidence: one claude-code run's wire read into cells that match its
// card, then the same wire corrupted (an accepted form, a capability dropped, a second form open at
// once, no tool call) and each corruption caught. The card loader refuses a card that is not one.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { WireFrame } from "../lab/history/timeline.js";
import { CANNOT_ANSWER, cardDifferences, cellsOf, declaresOf } from "../lab/check/host-row.js";
import { loadHostCards } from "../lab/check/host-cards.js";
import { HOST_PEERS, HOST_SCENARIO, HOST_SERVER } from "../lab/peers/hosts/index.js";
import { HOST_BOUND_MS } from "../lab/peers/hosts/host-session.js";
import { runSession } from "../lab/session/session.js";
import { openStdioTransport } from "../lab/transports/stdio.js";
import { needs } from "./support/needs.js";

const CLAUDE = HOST_PEERS.find((p) => p.name === "claude-code")!;
const TOOL = "probe_receive_loop";
const copy = (wire: readonly WireFrame[]): WireFrame[] => JSON.parse(JSON.stringify(wire)) as WireFrame[];
const find = (wire: WireFrame[], method: string) => wire.find((f) => f.label.frameType === "request" && f.label.method === method)!;
const replyTo = (wire: WireFrame[], request: WireFrame) => wire.find((f) => f.replyTo === request.index)!;

test("declares: an empty elicitation object is form (2025-06-18); modes named are what is declared", () => {
  assert.equal(declaresOf({ elicitation: {} }), { form: true, url: false, sampling: false, roots: false });
  assert.equal(declaresOf({ elicitation: { url: {} }, roots: {} }), { form: false, url: true, sampling: false, roots: true });
  assert.equal(declaresOf({ sampling: {} }), { form: false, url: false, sampling: true, roots: false });
});

needs(CLAUDE)("claude-code's real wire matches its card; each corruption of it is caught", async () => {
  const evidence = await runSession(HOST_SCENARIO, openStdioTransport, "stdio", { loop: "sdk", client: CLAUDE, server: HOST_SERVER, boundMs: HOST_BOUND_MS + 30_000 });
  assert.equal(evidence.errors, []);
  const card = loadHostCards().get("claude-code")!;
  const read = cellsOf(evidence.wire, TOOL);
  assert.ok("cells" in read);
  assert.equal(cardDifferences(read.cells, card), []);
  assert.match(read.triedFirst ?? "", /^server\/discover \(2026-07-28\)/);

  const accepted = copy(evidence.wire);
  const form = find(accepted, "elicitation/create");
  (replyTo(accepted, form).message as unknown as { result: { action: string } }).result.action = "accept";
  const a = cellsOf(accepted, TOOL);
  assert.ok("cells" in a && cardDifferences(a.cells, card).some((d) => d.startsWith("formGot: card says cancel, the run showed accept")));

  const noUrl = copy(evidence.wire);
  delete (find(noUrl, "initialize").message as unknown as { params: { capabilities: { elicitation: { url?: unknown } } } }).params.capabilities.elicitation.url;
  const u = cellsOf(noUrl, TOOL);
  assert.ok("cells" in u);
  assert.equal(cardDifferences(u.cells, card), ["declares url: card says true, the run showed false"]);

  // a second form, sent before the first's reply and answered after it: two open at once
  const twice = copy(evidence.wire);
  const first = find(twice, "elicitation/create");
  const second = { ...first, index: first.index + 0.5, message: { ...first.message, id: 99 } } as WireFrame;
  const reply = { ...replyTo(twice, first), index: 1e6, replyTo: second.index } as WireFrame;
  twice.splice(twice.indexOf(first) + 1, 0, second);
  twice.push(reply);
  const t = cellsOf(twice, TOOL);
  assert.ok("cells" in t && t.cells.formsAtOnce === 2);

  const noCall = evidence.wire.filter((f) => f.label.method !== "tools/call");
  assert.equal(cellsOf(noCall, TOOL), { why: `it never called ${TOOL} on the server` });
  assert.equal(cellsOf([], TOOL), { why: "it sent no initialize" });
});

test("a host with no form declared is 'cannot answer a form', whatever the tool answered", () => {
  const init = { index: 0, t: 0, from: "client", to: "server", label: { frameType: "request", id: 0, origin: "client", method: "initialize" }, message: { jsonrpc: "2.0", id: 0, method: "initialize", params: { capabilities: { roots: {} } } } };
  const call = { index: 1, t: 1, from: "client", to: "server", label: { frameType: "request", id: 1, origin: "client", method: "tools/call" }, message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: TOOL } } };
  const read = cellsOf([init, call] as unknown as WireFrame[], TOOL);
  assert.ok("cells" in read);
  assert.equal([read.cells.verdict, read.cells.formGot, read.cells.formsAtOnce], [CANNOT_ANSWER, "never sent", 0]);
});

test("a card that is not one is refused in one line naming its file", () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-host-cards-"));
  try {
    writeFileSync(join(dir, "codex.json"), JSON.stringify({ host: "codex", package: "@openai/codex", version: "1", runs: true, cells: { declares: { form: true } }, sources: [] }));
    assert.throws(() => loadHostCards(dir), /expected\/hosts\/codex\.json: "cells\.declares" needs form, url, sampling and roots/);
    writeFileSync(join(dir, "codex.json"), JSON.stringify({ host: "other" }));
    assert.throws(() => loadHostCards(dir), /"host" must be the file's name \(codex\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("every hand-written host card loads, one per host peer", () => {
  const cards = loadHostCards();
  assert.equal([...cards.keys()].sort(), HOST_PEERS.map((p) => p.name).sort());
});

test.run();
