// Hostile input never crashes the lab: a property test (fast-check, fixed seed, bounded count)
// feeds mutated real inputs to the expected-file parser, the driver-event reader and the frame
// classifier. Each either accepts its input or refuses it in one line; none throws anything else.
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { EXPECTED_DIR, ExpectationError, parseExpectation } from "../lab/check/expectations.js";
import { readDriverEvents } from "../lab/plan/read-driver-events.js";
import { classify } from "../lab/history/frames.js";
import { Recorder } from "../lab/history/timeline.js";
import { memoryRun } from "./support/runs.js";

const SEED = 22;
const RUNS = 150;
const FRAME_TYPES = ["request", "notification", "result", "error"];

/** Every hand-written scenario expectation, as text: the real inputs the mutations start from. */
const EXPECTED = readdirSync(EXPECTED_DIR).filter((f) => f.endsWith(".json")).map((f) => ({ file: f, text: readFileSync(join(EXPECTED_DIR, f), "utf8") }));

/** Bytes as a careless writer leaves them: cut short, spliced with junk, or not UTF-8 at all. */
const textMutation = (text: string) =>
  fc.oneof(
    fc.nat({ max: text.length }).map((n) => text.slice(0, n)),
    fc.tuple(fc.nat({ max: text.length }), fc.string({ maxLength: 20 })).map(([n, junk]) => text.slice(0, n) + junk + text.slice(n)),
    fc.tuple(fc.nat({ max: text.length }), fc.uint8Array({ minLength: 1, maxLength: 8 })).map(([n, bytes]) =>
      Buffer.concat([Buffer.from(text.slice(0, n)), Buffer.from(bytes), Buffer.from(text.slice(n))]).toString("utf8"),
    ),
  );

/** A value replaced somewhere in a JSON document: a wrong type, a huge number, an unknown key. */
function valueMutation(doc: unknown) {
  const hostile = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(1e308, -1e308, 2 ** 64, Number.MAX_SAFE_INTEGER + 2, -0, "", "x".repeat(10_000), [], {}, null));
  return fc.tuple(fc.nat(), hostile, fc.boolean()).map(([pick, value, addKey]) => {
    const copy = structuredClone(doc) as Record<string, unknown>;
    const holders: Record<string, unknown>[] = [];
    const walk = (v: unknown) => {
      if (v && typeof v === "object") {
        holders.push(v as Record<string, unknown>);
        for (const child of Object.values(v)) walk(child);
      }
    };
    walk(copy);
    const holder = holders[pick % holders.length]!;
    const keys = Object.keys(holder);
    if (addKey || keys.length === 0) holder[Array.isArray(holder) ? holder.length : "unknownKey"] = value;
    else holder[keys[pick % keys.length]!] = value;
    return JSON.stringify(copy);
  });
}

test("the expected-file parser: any mutation of a real file is accepted or refused in one line", () => {
  const inputs = fc.constantFrom(...EXPECTED).chain(({ file, text }) => fc.tuple(fc.constant(file), fc.oneof(textMutation(text), valueMutation(JSON.parse(text)))));
  fc.assert(
    fc.property(inputs, ([file, text]) => {
      try {
        parseExpectation(text, file);
      } catch (error) {
        if (!(error instanceof ExpectationError)) throw new Error(`not an ExpectationError: ${String(error)}`);
        if (error.message.includes("\n")) throw new Error(`more than one line: ${error.message.slice(0, 200)}`);
        if (!error.message.startsWith(`${file}: `)) throw new Error(`does not name the file: ${error.message.slice(0, 200)}`);
      }
    }),
    { seed: SEED, numRuns: RUNS },
  );
});

/** Lines as the Python client driver writes them (lab/plan/driver-events.ts), the mutations' start. */
const DRIVER_LINES = [
  { t_ns: 1_000, kind: "call.started", detail: { call: "first" } },
  { t_ns: 2_000, kind: "callback.entered", id: 0, method: "elicitation/create", detail: { n: 1, call: "first" } },
  { t_ns: 3_000, kind: "nested.sent", method: "tools/list" },
  { t_ns: 4_000, kind: "nested.failed", method: "tools/list", detail: { code: -32001, message: "Request timed out", type: "McpError" } },
  { t_ns: 5_000, kind: "callback.left", id: 0, method: "elicitation/create", detail: { n: 1, call: "first", action: "accept" } },
  { t_ns: 6_000, kind: "tool.result", detail: { call: "first", result: { computed: true, value: 21 }, isError: false } },
].map((e) => JSON.stringify(e));

test("the driver-event reader: truncated, huge, non-UTF-8, reordered or unknown lines are problems named in one line each", () => {
  const file = DRIVER_LINES.join("\n");
  const events = fc.oneof(
    textMutation(file),
    fc.shuffledSubarray(DRIVER_LINES).map((lines) => lines.join("\n")), // out of order, some missing
    fc.constantFrom(...DRIVER_LINES).chain((line) => valueMutation(JSON.parse(line))).map((line) => `${DRIVER_LINES[0]}\n${line}`),
    fc.constant(`${DRIVER_LINES[0]}\n{"t_ns":1,"kind":"${"x".repeat(10 * 1024 * 1024)}"}`), // a 10 MB line
  );
  fc.assert(
    fc.property(events, (text) => {
      const problems = readDriverEvents(text, new Recorder(), "events.jsonl");
      for (const p of problems) {
        if (p.includes("\n")) throw new Error(`a problem of more than one line: ${p.slice(0, 200)}`);
        if (p.length > 2_000) throw new Error(`a problem of ${p.length} characters`);
      }
    }),
    { seed: SEED, numRuns: 60 },
  );
});

test("the frame classifier: any JSON, and any mutation of a real frame, is classified, never thrown on", async () => {
  const run = await memoryRun("nested", "sdk");
  const frames = run.wire.map((f) => f.message);
  const messages = fc.oneof(fc.anything(), fc.jsonValue(), fc.constantFrom(...frames).chain((m) => valueMutation(m).map((t) => JSON.parse(t) as unknown)));
  fc.assert(
    fc.property(messages, (message) => {
      const label = classify(message);
      if (!FRAME_TYPES.includes(label.frameType)) throw new Error(`frame type ${String(label.frameType)}`);
    }),
    { seed: SEED, numRuns: 500 },
  );
  assert.ok(frames.length > 5);
});

test.run();
