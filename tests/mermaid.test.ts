// The Mermaid diagram, from real runs: one message per wire frame with the right arrow, labels
// free of the characters Mermaid reads as syntax, balanced blocks, and the notes that tell the
// deadlock story.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { LOOP_MODELS, type LoopModel } from "../lab/history/receive-loop.js";
import { mermaidText, renderMermaid } from "../lab/render/mermaid.js";
import { type SessionEvidence } from "../lab/plan/session.js";
import { memoryRun, startAllMemoryRuns } from "./support/runs.js";
import { SCENARIOS } from "../scenarios/index.js";
import { beforeCancel, retimed } from "./support/timelines.js";

// this file reads every scenario x model: all started when its tests begin, a few at a time
test.before(startAllMemoryRuns);

/** The real runs every test file shares (support/runs.ts): each scenario x model once. */
const run = (scenario: string, loop: LoopModel): Promise<SessionEvidence> => memoryRun(scenario, loop);

const MESSAGE = /^\s*([CS])(-->>|->>)([CS]): (.*)$/;
/** After the first ": ", only entity codes may carry #, ; or : */
const unsafe = (label: string) => label.replace(/#\d+;/g, "").match(/[#;:%"<>]|<br\/>/g);

test("mermaidText turns every character Mermaid reads as syntax into an entity code", () => {
  assert.is(mermaidText("tools/list #3"), "tools/list #35;3");
  assert.is(mermaidText("a; b: c"), "a#59; b#58; c");
  assert.is(mermaidText(`<b>"x" & 50%`), "#60;b#62;#34;x#34; #38; 50#37;");
});

// Every registered scenario (nested, prefetch, fixed-fixture and any added since) x both models.
for (const { name: scenario } of SCENARIOS) {
  for (const loop of LOOP_MODELS) {
    test(`${scenario} under ${loop}: one message per wire frame, safe labels, balanced blocks`, async () => {
      const evidence = await run(scenario, loop);
      const lines = renderMermaid(evidence).split("\n");
      assert.is(lines[0], "sequenceDiagram");
      const messages = lines.map((l) => MESSAGE.exec(l)).filter((m): m is RegExpExecArray => m !== null);
      assert.is(messages.length, evidence.wire.length);
      messages.forEach((m, i) => {
        const frame = evidence.wire[i]!;
        const msg = frame.message as { method?: string; id?: unknown };
        assert.is(m[1], frame.from === "client" ? "C" : "S");
        assert.is(m[2], msg.method === undefined ? "-->>" : "->>", `frame ${i}: replies dashed, requests and notifications solid`);
        if (msg.id !== undefined) assert.ok(m[4]!.includes(`#35;${String(msg.id)}`), m[4]);
        assert.is(unsafe(m[4]!), null, m[4]);
      });
      for (const line of lines.filter((l) => /^\s*Note /.test(l))) {
        const text = line.slice(line.indexOf(": ") + 2).split("<br/>");
        for (const part of text) assert.is(unsafe(part), null, line);
      }
      const count = (re: RegExp) => lines.filter((l) => re.test(l)).length;
      assert.is(count(/^\s*rect /), count(/^\s*end$/));
      assert.is(count(/^\s*activate C$/), count(/^\s*deactivate C$/));
    });
  }
}

test("nested under serial: the held span is a rect, with the deadlock, the timeout, the late reply and the gap noted inside", async () => {
  // a real run's structure on the test's own clock: the only gap is the 500 ms the test puts there
  const lines = renderMermaid(retimed(await run("nested", "serial"), [{ before: beforeCancel, ms: 500 }])).split("\n");
  const start = lines.findIndex((l) => l.trim().startsWith("rect "));
  const end = lines.findIndex((l, i) => i > start && l.trim() === "end");
  assert.ok(start > 0 && end > start);
  const inside = lines.slice(start, end).join("\n");
  assert.match(inside, "HELD in client queue");
  assert.match(inside, "DEADLOCK#58; a wait-for cycle on the client");
  assert.match(inside, "TIMEOUT (the SDK#39;s request limit)#58; nested tools/list failed -32001");
  assert.match(inside, "C->>S: notifications/cancelled");
  assert.equal(lines.filter((l) => l.includes(" ms pass ...")).map((l) => l.trim()), ["Note over C,S: ... 500.5 ms pass ..."]);
  assert.match(inside, "Note over C,S: ... 500.5 ms pass ...");
  assert.match(inside, "LATE#58; its requester already gave up");
  assert.match(inside, "callback #35;1 answers cancel");
  assert.match(lines.join("\n"), "Note over C: recovery = calculated (21)");
});

test("nested under sdk: no rect, no activation, the nested call returns", async () => {
  const text = renderMermaid(await run("nested", "sdk"));
  assert.not.match(text, /^\s*(rect|activate) /m);
  assert.match(text, "nested tools/list returned");
  assert.match(text, "Note over C: first = calculated (21)");
});

test.run();
