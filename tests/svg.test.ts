// The SVG sequence diagram, from real runs: well-formed XML, self-contained, one arrow per wire
// frame, and the held span, deadlock, timeout, late reply and cut gap marked where they happened.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LOOP_MODELS, type LoopModel } from "../lab/history/receive-loop.js";
import { renderSvg, svgFileName } from "../lab/render/svg.js";
import { type SessionEvidence } from "../lab/plan/session.js";
import { memoryRun, startAllMemoryRuns } from "./support/runs.js";
import type { TimelineEvent, WireFrame } from "../lab/history/timeline.js";
import { SCENARIOS } from "../scenarios/index.js";
import { runMain } from "./support/cli.js";
import { beforeCancel, retimed } from "./support/timelines.js";
import { allElements, hasClass, parseXml, textContent, XmlError, type XmlElement } from "./support/xml.js";

// this file reads every scenario x model: all started when its tests begin, a few at a time
test.before(startAllMemoryRuns);

// Every registered scenario (nested, prefetch, fixed-fixture and any added since) x both models.
const CASES = SCENARIOS.flatMap(({ name: scenario }) => LOOP_MODELS.map((loop) => ({ scenario, loop })));

/** The real runs every test file shares (support/runs.ts): each scenario x model once. */
const run = (scenario: string, loop: LoopModel): Promise<SessionEvidence> => memoryRun(scenario, loop);

const byClass = (root: XmlElement, cls: string) => allElements(root).filter((e) => hasClass(e, cls));

// ----- the checker itself: it must reject what a browser rejects, or the tests below prove nothing

test("the XML checker rejects malformed documents, naming where", () => {
  const bad = [
    "<a><b></a>",
    "<a><b></b>",
    "<a x=1/>",
    '<a x="1" x="2"/>',
    '<a x="<"/>',
    "<a>&foo;</a>",
    "<a>fish & chips</a>",
    "<a>&#0;</a>",
    "<a>1 < 2</a>",
    "<a/><b/>",
    "<a/>text",
    "<a><!-- a -- b --></a>",
    '<a x="1"y="2"/>',
    "<a>\u0001</a>",
    '<?xml version="1.0"?><?xml version="1.0"?><a/>',
  ];
  for (const doc of bad) {
    assert.throws(() => parseXml(doc), (e: unknown) => e instanceof XmlError && /line \d+, column \d+/.test(e.message), doc);
  }
});

test("the XML checker accepts well-formed XML and decodes entities", () => {
  const root = parseXml(`<?xml version="1.0" encoding="UTF-8"?>\n<!-- c --><r a='1' b="&lt;&amp;&quot;&#35;&#x41;"><c/>t &gt; u<![CDATA[<raw>]]></r>\n`);
  assert.is(root.name, "r");
  assert.is(root.attrs.b, '<&"#A');
  assert.is(root.text, "t > u<raw>");
  assert.is(root.children.length, 1);
});

// ----- real runs

for (const { scenario, loop } of CASES) {
  test(`${scenario} under ${loop}: well-formed, self-contained, one arrow per wire frame`, async () => {
    const evidence = await run(scenario, loop);
    const svg = renderSvg(evidence, { loopMeaning: "meaning", sdk: "1.32.2" });
    const root = parseXml(svg);
    assert.is(root.name, "svg");
    assert.is(root.attrs.xmlns, "http://www.w3.org/2000/svg");

    const arrows = byClass(root, "frame");
    assert.is(arrows.length, evidence.wire.length, "one arrow per wire frame");
    assert.equal(
      arrows.map((a) => Number(a.attrs["data-frame"])),
      evidence.wire.map((f) => f.index),
    );
    for (const a of arrows) {
      const frame = evidence.wire[Number(a.attrs["data-frame"])]!;
      assert.is(a.attrs["data-from"], frame.from);
      assert.ok(a.children.some((c) => c.name === "line") && a.children.some((c) => c.name === "polygon"), "a line and an arrowhead");
      const label = textContent(a.children.find((c) => c.name === "text")!);
      const m = frame.message as { id?: unknown; method?: string };
      if (m.method) assert.ok(label.includes(m.method), `label '${label}' names ${m.method}`);
      if (m.id !== undefined) assert.ok(label.includes(`#${String(m.id)}`), `label '${label}' has #${String(m.id)}`);
    }

    // Self-contained: nothing to fetch, nothing to run.
    for (const e of allElements(root)) {
      assert.not.ok(["script", "image", "use", "foreignObject", "style", "a"].includes(e.name), `<${e.name}>`);
      for (const [k, v] of Object.entries(e.attrs)) {
        assert.not.ok(/href$/i.test(k) || /^on/i.test(k), `attribute ${k}`);
        if (k !== "xmlns") assert.not.ok(/url\(|https?:/i.test(v), `${k}="${v}"`);
      }
    }

    // Every time written on the time axis is a real event or frame time.
    const realTimes = new Set([...evidence.events.map((e) => e.t.toFixed(1)), ...evidence.wire.map((f) => f.t.toFixed(1))]);
    const axis = allElements(root).filter((e) => e.name === "text" && e.attrs.x === "62" && /^\d+\.\d$/.test(e.text));
    assert.ok(axis.length >= evidence.wire.length);
    for (const t of axis) assert.ok(realTimes.has(t.text), `axis time ${t.text} is real`);
  });
}

// ----- built timelines: a real run's structure on the test's own clock (0.5 ms a step), so a
// gap is exactly what the test puts there, not what the machine's load made of a live run

test("nested under serial: held band, deadlock cycle, timeout, late reply and a cut gap that states its real length", async () => {
  const evidence = retimed(await run("nested", "serial"), [{ before: beforeCancel, ms: 500 }]);
  const root = parseXml(renderSvg(evidence));
  const late = evidence.events.find((e) => e.kind === "reply.late")!;
  const arrived = evidence.events.find((e) => e.kind === "frame.arrived" && e.frame === late.frame)!;
  const dispatched = evidence.events.find((e) => e.kind === "frame.dispatched" && e.frame === late.frame)!;

  const held = byClass(root, "held-band");
  assert.is(held.length, 1);
  assert.is(held[0]!.attrs["data-frame"], String(late.frame));
  assert.match(textContent(held[0]!), `${(dispatched.t - arrived.t).toFixed(1)} ms`);

  const deadlock = byClass(root, "deadlock");
  assert.is(deadlock.length, 1);
  assert.match(textContent(deadlock[0]!), "elicitation/create #0 waits for tools/list #3");
  assert.match(textContent(deadlock[0]!), "tools/list #3's reply waits behind elicitation/create #0");

  const timeout = byClass(root, "timeout");
  assert.is(timeout.length, 1);
  assert.match(textContent(timeout[0]!), "-32001");

  const lateArrow = byClass(root, "frame").filter((a) => hasClass(a, "late"));
  assert.equal(lateArrow.map((a) => a.attrs["data-frame"]), [String(late.frame)]);
  assert.match(textContent(byClass(root, "released-held")[0]!), "LATE");

  // The one long gap is the timeout's quiet stretch, cut once, stating its real length: the
  // 500 ms pause plus the one step from the row before it.
  const cuts = byClass(root, "break");
  assert.is(cuts.length, 1);
  const cancelled = evidence.events.find(beforeCancel)!;
  const rowBefore = evidence.events.filter((e) => e.seq < cancelled.seq && e.kind === "deadlock").at(-1)!;
  assert.is(Number(cuts[0]!.attrs["data-ms"]), cancelled.t - rowBefore.t);
  assert.match(textContent(cuts[0]!), `≈ ${(cancelled.t - rowBefore.t).toFixed(1)} ms pass here`);
});

test("nested under sdk: nothing held, no deadlock, no timeout, no cut", async () => {
  const root = parseXml(renderSvg(retimed(await run("nested", "sdk"))));
  for (const cls of ["held-band", "held", "deadlock", "timeout", "late", "break", "loop-held"]) assert.is(byClass(root, cls).length, 0, cls);
});

test("a gap is cut only when it is longer than 40 ms, each cut stating its own length", async () => {
  const calls = (call: string) => (e: { kind: string; detail?: Record<string, unknown> }) => e.kind === "call.started" && e.detail?.call === call;
  // steps of 1 µs, a few of them between two rows: a pause of 39.9 ms stays under 40 ms (not
  // cut), one of 40.1 ms is over it (cut, and labelled with its length)
  const evidence = retimed(
    await run("fixed-fixture", "sdk"),
    [
      { before: calls("first"), ms: 39.9 },
      { before: calls("recovery"), ms: 40.1 },
    ],
    0.001,
  );
  const cuts = byClass(parseXml(renderSvg(evidence)), "break").map((c) => Number(c.attrs["data-ms"]));
  assert.is(cuts.length, 1, `cuts: ${cuts.join(", ")}`);
  assert.ok(cuts[0]! > 40.1 && cuts[0]! < 40.2, `cut ${cuts[0]} ms`);
});

test("text from the evidence is escaped: hostile method names and error messages stay well-formed and intact", () => {
  const method = `x<y>&"z'/]]>`;
  const message = `boom <b>&amp; "quoted" \u0001 end`;
  const events: TimelineEvent[] = [
    { seq: 0, t: 1, side: "client", kind: "frame.sent", frameType: "request", id: 0, origin: "client", method, frame: 0 },
    { seq: 1, t: 2, side: "client", kind: "sdk.error", detail: { message } },
  ];
  const wire: WireFrame[] = [{ index: 0, t: 1, from: "client", to: "server", message: { jsonrpc: "2.0", id: 0, method }, label: { frameType: "request", id: 0, origin: "client", method } }];
  const root = parseXml(renderSvg({ scenario: "s<&>", loop: "sdk", transport: "memory", repeat: 1, events, wire }));
  assert.ok(textContent(byClass(root, "frame")[0]!).includes(method));
  assert.ok(textContent(root).includes("boom <b>&amp; \"quoted\" ? end"));
});

test("the CLI writes one SVG per run next to its JSON", async () => {
  const out = mkdtempSync(join(tmpdir(), "lab-svg-"));
  try {
    const r = await runMain(["nested", "--loop", "sdk", "--transport", "memory", "--repeat", "2", "--out", out]);
    assert.is(r.code, 0, r.stderr);
    const dir = join(out, "latest"); // this invocation's folder in the store
    assert.ok(existsSync(join(dir, "nested.sdk.json")));
    for (const repeat of [1, 2]) {
      const file = join(dir, svgFileName("nested", "sdk", "", "memory", repeat));
      assert.ok(existsSync(file), file);
      const root = parseXml(readFileSync(file, "utf8"));
      const report = JSON.parse(readFileSync(join(dir, "nested.sdk.json"), "utf8"));
      assert.is(byClass(root, "frame").length, report.runs[repeat - 1].wire.length);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test.run();
