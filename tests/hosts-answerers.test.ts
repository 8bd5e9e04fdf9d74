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

/** each answerer host, and the nested requests its answerer sends through it while the form is
 *  open, sorted (none: the host offers no way; codex's app server sends its two at once, in either order) */
const ANSWERERS: Record<string, string[] | undefined> = { "claude-agent-sdk": ["resources/read"], "claude-code-hook": undefined, "codex-app": ["resources/list", "resources/templates/list"] };
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
    const methods = nested.join(", ");
    assert.equal(row.nested, `${methods} answered while the form was open`);

    // the same wire, the nested requests' replies moved after the form's reply (the first alone,
    // then all), then dropped
    const wire = JSON.parse(JSON.stringify(evidence!.wire)) as WireFrame[];
    const form = wire.find((f) => f.label.method === "elicitation/create" && f.label.frameType === "request")!;
    const formReply = wire.find((f) => f.replyTo === form.index)!;
    const replies = nested.map((method) => {
      const sent = wire.find((f) => f.label.method === method && f.label.frameType === "request" && f.from === "client")!;
      return wire.find((f) => f.replyTo === sent.index)!;
    });
    // the wire as hosts --wire prints it: each request with its reply, pings folded; the order in
    // which replies came back does not change it
    const shown = renderHostWire(name, evidence!.wire, row.pingsWhileOpen);
    assert.ok(shown.includes("  server elicitation/create: result, accept"), shown.join("\n"));
    for (const method of nested) assert.ok(shown.includes(`  client ${method}: error -32601`), shown.join("\n"));
    assert.ok(shown.some((l) => l.includes("pings while the form was open: answered while it was open")));
    assert.not.ok(shown.some((l) => /^\s+(client|server)\s+ping\b/.test(l)), "no ping line of its own");
    if (nested.length > 1) {
      // sent together, in the other order: read and printed alike
      const swapped = JSON.parse(JSON.stringify(evidence!.wire)) as WireFrame[];
      const [a, b] = nested.map((method) => swapped.find((f) => f.label.method === method && f.label.frameType === "request" && f.from === "client")!);
      [a!.index, b!.index] = [b!.index, a!.index];
      for (const f of swapped) if (f.replyTo === a!.index || f.replyTo === b!.index) f.replyTo = f.replyTo === a!.index ? b!.index : a!.index;
      const order = [...swapped].sort((x, y) => x.index - y.index);
      assert.equal(renderHostWire(name, order, row.pingsWhileOpen), shown);
      const read = cellsOf(order, "probe_receive_loop");
      assert.ok("cells" in read && read.nested === row.nested);
    }
    replies[0]!.index = formReply.index + 0.5;
    const sorted = () => [...wire].sort((a, b) => a.index - b.index);
    assert.equal(renderHostWire(name, sorted(), row.pingsWhileOpen), shown);
    const one = cellsOf(sorted(), "probe_receive_loop");
    const rest = nested.slice(1);
    const oneWords = [...(rest.length ? [`${rest.join(", ")} answered while the form was open`] : []), `${nested[0]} answered after the form`].join("; ");
    assert.ok("cells" in one && one.nested === oneWords, JSON.stringify("cells" in one && one.nested));
    replies.forEach((r, i) => (r.index = formReply.index + 0.5 + i / 10));
    const late = cellsOf(sorted(), "probe_receive_loop");
    assert.ok("cells" in late && late.nested === `${methods} answered after the form`);
    const dropped = cellsOf(wire.filter((f) => !replies.includes(f)), "probe_receive_loop");
    assert.ok("cells" in dropped && dropped.nested === `${methods} never answered`);
  });
}

test.run();
