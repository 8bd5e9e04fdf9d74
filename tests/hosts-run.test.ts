// Each host as installed, run headless by the lab (lab/cli/hosts.ts hostRow): it calls the probe's
// tool through the scripted model, every cell read from its wire matches its hand-written card, the
// scripted model saw only loopback and the tool call came first, and the host's process is gone.
// npm test runs the quick hosts; LAB_TESTS=full (.ci/run) every host. A host not installed: a named
// skip (under CI=true, where the set-up installs every host first, a failure).
import { alive } from "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { hostRow } from "../lab/cli/hosts.js";
import { cardDifferences } from "../lab/check/host-row.js";
import { loadHostCards } from "../lab/check/host-cards.js";
import { HOST_PEERS, lastHostRun } from "../lab/peers/hosts/index.js";
import { needs } from "./support/needs.js";

/** the quickest hosts, one of each kind (cancels, declines, declares no form) */
const CORE = ["claude-code", "codex", "gemini-cli"];
const FULL = process.env.LAB_TESTS === "full";
const cards = loadHostCards();

for (const peer of HOST_PEERS.filter((p) => FULL || CORE.includes(p.name))) {
  needs(peer)(`${peer.name}: calls the tool, its cells match its card, only loopback reached the model, its process is gone`, async () => {
    const row = await hostRow(peer);
    assert.ok(row.cells, `${peer.name} ran: ${row.notRun ?? ""}`);
    const card = cards.get(peer.name);
    assert.ok(card, `expected/hosts/${peer.name}.json exists`);
    assert.equal(cardDifferences(row.cells!, card!), []);
    assert.equal(row.version, card!.version, "the installed version is the card's");
    const run = lastHostRun(peer.name)!;
    assert.ok(run.model.exchanges.length > 0);
    assert.ok(run.model.exchanges.every((e) => e.remote === "127.0.0.1"), "the scripted model saw only loopback");
    // titles and summaries (plain) and network tries refused at the proxy aside
    const phases = run.model.exchanges.map((e) => e.phase).filter((p) => p === "tool-call" || p === "final");
    assert.equal(phases[0], "tool-call", "the host was asked for the tool first");
    assert.ok(phases.includes("final"), "and got the final text once the tool's result was in");
    assert.not.ok(run.stoppedByLab, "it ended by itself within its bound");
    assert.ok(run.pid !== null && !alive(run.pid), "its process is gone");
  });
}

test.run();
