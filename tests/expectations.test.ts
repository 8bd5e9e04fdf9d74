// Expectation files: every value in them matters (changing any one makes real evidence fail),
// and a malformed file is reported with its name and the path inside it.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { EXPECTED_DIR, ExpectationError, parseExpectation } from "../lab/expectations.js";
import type { DispatchModel } from "../lab/receive-loop.js";
import { verify } from "../lab/verify.js";
import { memoryRun } from "./support/runs.js";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Every leaf path except free-text explanations and the file's own identity. */
function leafPaths(value: Json, path: (string | number)[] = []): (string | number)[][] {
  if (value !== null && typeof value === "object") {
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
    return entries.flatMap(([k, v]) => (k === "basis" || k === "why" || (path.length === 0 && (k === "scenario" || k === "dispatch" || k === "onDeadlock")) ? [] : leafPaths(v as Json, [...path, k])));
  }
  return [path];
}

function mutated(doc: Json, path: (string | number)[]): Json {
  const copy = structuredClone(doc) as Record<string | number, Json>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = path.at(-1)!;
  const old = parent[last];
  // Bounds and ordering ranks are changed in the direction that makes the claim stronger:
  // a weaker claim (a looser bound, "before the 2nd" where "before the 1st" held) is implied
  // by the original and so, by its nature, invisible to any passing run.
  const key = String(last);
  const parentKey = String(path.at(-2));
  if (typeof old === "number" && key === "atLeastCallbacks") parent[last] = old * 100 + 10;
  else if (typeof old === "number" && (key === "atMostCallbacks" || key === "atMostMs")) parent[last] = 0;
  else if (typeof old === "number" && key === "nth" && parentKey === "then") parent[last] = old - 1;
  else parent[last] = typeof old === "boolean" ? !old : typeof old === "number" ? old + 1 : typeof old === "string" ? `${old}-changed` : 0;
  return copy;
}

const files = readdirSync(EXPECTED_DIR).filter((f) => /^[a-z-]+\.(sdk|serial)(\.break)?\.json$/.test(f));

for (const file of files) {
  test(`changing any value in expected/${file} makes the real run fail`, async () => {
    const [scenario, dispatch, mode] = file.split(".") as [string, DispatchModel, string];
    const text = readFileSync(join(EXPECTED_DIR, file), "utf8");
    const doc = JSON.parse(text) as Json;
    const run = await memoryRun(scenario, dispatch, mode === "break" ? "break" : "wait");
    assert.ok(verify(run, parseExpectation(text, file)).every((v) => v.ok), "the unchanged file passes");
    const survivors: string[] = [];
    const paths = leafPaths(doc);
    for (const path of paths) {
      let rejected: boolean;
      try {
        rejected = verify(run, parseExpectation(JSON.stringify(mutated(doc, path)), file)).some((v) => !v.ok);
      } catch (error) {
        rejected = error instanceof ExpectationError;
      }
      if (!rejected) survivors.push(path.join("."));
    }
    assert.ok(paths.length > 10, `${paths.length} values checked`);
    assert.equal(survivors, [], `changes that went unnoticed: ${survivors.join(", ")}`);
  });
}

test("a malformed expectation names the file and the path inside it", () => {
  const doc = JSON.parse(readFileSync(join(EXPECTED_DIR, "nested.serial.json"), "utf8"));
  doc.order[2].first.nth = "two";
  try {
    parseExpectation(JSON.stringify(doc), "expected/nested.serial.json");
    assert.unreachable("should have thrown");
  } catch (error) {
    assert.instance(error, ExpectationError);
    const message = (error as Error).message;
    assert.match(message, "expected/nested.serial.json");
    assert.match(message, "$.order[2].first.nth");
  }
});

test("an unknown key in an expectation is refused, not ignored", () => {
  const doc = JSON.parse(readFileSync(join(EXPECTED_DIR, "prefetch.sdk.json"), "utf8"));
  doc.results.first.extra = true;
  doc.reslts = {};
  assert.throws(() => parseExpectation(JSON.stringify(doc), "x.json"), /\$\.reslts/);
});

test.run();
