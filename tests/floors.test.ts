// The lab's floors (lab/README.md "Floors"): no import runs up a floor or across one, and no
// import circle exists. The real graph is checked, then corrupted to show the check refuses it.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { PROJECT_ROOT } from "../lab/paths.js";
import { circles, floorOf, floorProblems, importGraph, type Graph } from "./support/floors.js";

const real = importGraph(PROJECT_ROOT);
const withEdge = (graph: Graph, from: string, to: string): Graph => new Map([...graph, [from, [...(graph.get(from) ?? []), to]]]);

test("the real import graph: every file stands on a floor, nothing imports up or across, no circle", () => {
  assert.ok(real.size > 100, `only ${real.size} files scanned`);
  assert.ok(real.get("lab/session/session.ts")?.some((t) => t.startsWith("lab/plan/")), "the scan sees session importing plan");
  assert.equal(floorProblems(real), []);
});

test("nothing under transports, peers, scenarios, check or history imports from lab/session/", () => {
  const low = ["lab/transports/", "lab/peers/", "scenarios/", "lab/check/", "lab/history/", "lab/plan/"];
  const offenders = [...real].filter(([file, targets]) => low.some((l) => file.startsWith(l)) && targets.some((t) => t.startsWith("lab/session/")));
  assert.equal(offenders.map(([file]) => file), []);
});

test("an upward import is refused: transports/memory.ts importing session/session.ts", () => {
  const problems = floorProblems(withEdge(real, "lab/transports/memory.ts", "lab/session/session.ts"));
  assert.ok(problems.some((p) => p.startsWith("lab/transports/memory.ts imports lab/session/session.ts: up")), problems.join("\n"));
});

test("an import across a floor is refused: notebooks importing bench", () => {
  const bench = [...real.keys()].find((f) => f.startsWith("lab/bench/"))!;
  const problems = floorProblems(withEdge(real, "lab/notebooks/index.ts", bench));
  assert.ok(problems.some((p) => p.includes("across, lab/notebooks to lab/bench")), problems.join("\n"));
});

test("a circle is refused, even inside one folder: check/card.ts <-> check/card-cancel.ts", () => {
  const graph = withEdge(withEdge(real, "lab/check/card.ts", "lab/check/card-cancel.ts"), "lab/check/card-cancel.ts", "lab/check/card.ts");
  assert.ok(circles(graph).some((c) => c.includes("lab/check/card.ts") && c.includes("lab/check/card-cancel.ts")));
  assert.ok(floorProblems(graph).some((p) => p.startsWith("import circle:")));
});

test("a file outside every floor is named", () => {
  assert.equal(floorOf("lab/newfolder/x.ts"), undefined);
  assert.ok(floorProblems(new Map([["lab/newfolder/x.ts", []]]))[0]!.includes("stands on no floor"));
});

test.run();
