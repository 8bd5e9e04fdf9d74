// The hosts whose forms the lab answers (claude-agent-sdk, claude-code-hook, codex-app): each run
// for real accepts the probe's form by the plan, every cell matches its card, and what the
// answerer's nested request did through the host is read from the wire; the same wire with the
// nested reply moved after the form's, or dropped, is read so, and hosts --wire prints it alike.
// The plan's answer is pure.
import { alive } from "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { hostRun } from "../lab/cli/hosts.js";
import { cardDifferences, cellsOf } from "../lab/check/host-row.js";
import { loadHostCards } from "../lab/check/host-cards.js";
import { HOST_PEERS, lastHostRun } from "../lab/peers/hosts/index.js";
import { formAnswer, formContent } from "../lab/peers/hosts/answer.js";
import { requestedSchema } from "../lab/plan/form.js";
import type { WireFrame } from "../lab/history/timeline.js";
import { renderHostWire } from "../lab/render/hosts-table.js";
import { needs } from "./support/needs.js";

/** each answerer host, and the nested request its answerer sends through it (none: the host offers no way) */
const ANSWERERS: Record<string, string | undefined> = { "claude-agent-sdk": "resources/read", "claude-code-hook": undefined, "codex-app": "resources/list" };
const cards = loadHostCards();

test("the plan's answer: the calculate form gets 3 and 7, the probe's box ticked, other fields from their schema; a URL form is declined", () => {
  assert.equal(formContent(requestedSchema()), { units: 3, unit_value: 7 });
  assert.equal(formContent({ properties: { ready: { type: "boolean" } } }), { ready: true });
  const other = { properties: { n: { type: "integer", minimum: 5 }, c: { type: "string", enum: ["red", "blue"] }, s: { type: "string" }, d: { type: "number", default: 2.5 } } };
  assert.equal(formContent(other), { n: 5, c: "red", s: "lab", d: 2.5 });
  assert.equal(formAnswer({ mode: "url" }), { action: "decline" });
});

for (const [name, nested] of Object.entries(ANSWERERS)) {
  const peer = HOST_PEERS.find((p) => p.name === name)!;
  needs(peer)(`${name}: the lab's answerer accepts, the cells match its card, the nested request is read, its process is gone`, async () => {
    const { row, evidence } = await hostRun(peer);
    assert.ok(row.cells, `${name} ran: ${row.notRun ?? ""}`);
    assert.equal(cardDifferences(row.cells!, cards.get(name)!), []);
    assert.equal(row.cells!.formGot, "accept");
    assert.ok((row.pingsWhileOpen?.answeredFirst ?? 0) >= 3, "pings answered while the form was open");
    const run = lastHostRun(name)!;
    assert.ok(run.pid !== null && !alive(run.pid), "its process is gone");
    if (nested === undefined) return assert.equal(row.nested, undefined);
    assert.equal(row.nested, `${nested} answered while the form was open`);

    // the same wire, the nested request's reply moved after the form's reply, then dropped
    const wire = JSON.parse(JSON.stringify(evidence!.wire)) as WireFrame[];
    const form = wire.find((f) => f.label.method === "elicitation/create" && f.label.frameType === "request")!;
    const sent = wire.find((f) => f.label.method === nested && f.label.frameType === "request")!;
    const reply = wire.find((f) => f.replyTo === sent.index)!;
    const formReply = wire.find((f) => f.replyTo === form.index)!;
    // the wire as hosts --wire prints it: each request with its reply, pings folded; the order in
    // which replies came back does not change it
    const shown = renderHostWire(name, evidence!.wire, row.pingsWhileOpen);
    assert.ok(shown.includes("  server elicitation/create: result, accept"), shown.join("\n"));
    assert.ok(shown.includes(`  client ${nested}: error -32601`), shown.join("\n"));
    assert.ok(shown.some((l) => l.includes("pings while the form was open: answered while it was open")));
    assert.not.ok(shown.some((l) => /^\s+(client|server)\s+ping\b/.test(l)), "no ping line of its own");
    reply.index = formReply.index + 0.5;
    assert.equal(renderHostWire(name, [...wire].sort((a, b) => a.index - b.index), row.pingsWhileOpen), shown);
    const late = cellsOf(wire, "probe_receive_loop");
    assert.ok("cells" in late && late.nested === `${nested} answered after the form`);
    const dropped = cellsOf(wire.filter((f) => f !== reply), "probe_receive_loop");
    assert.ok("cells" in dropped && dropped.nested === `${nested} never answered`);
  });
}

test.run();
