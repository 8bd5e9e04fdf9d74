// Expectation files: every value in them matters (changing any one makes real evidence fail),
// and a malformed file is reported with its name and the path inside it.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { appliesTo, EXPECTED_DIR, ExpectationError, parseExpectation, TS1_PAIR } from "../lab/check/expectations.js";
import type { LoopModel } from "../lab/history/receive-loop.js";
import { verify } from "../lab/check/verify.js";
import { survivingChanges, type Json } from "../lab/check/mutations.js";
import { memoryRun, startAllMemoryRuns } from "./support/runs.js";

// this file reads every scenario x model: all started when its tests begin, a few at a time
test.before(startAllMemoryRuns);

const files = readdirSync(EXPECTED_DIR).filter((f) => /^[a-z-]+\.(sdk|serial)(\.break)?\.json$/.test(f));

for (const file of files) {
  test(`changing any value in expected/${file} makes the real run fail`, async () => {
    const [scenario, loop, mode] = file.split(".") as [string, LoopModel, string];
    const text = readFileSync(join(EXPECTED_DIR, file), "utf8");
    const doc = JSON.parse(text) as Json;
    const run = await memoryRun(scenario, loop, mode === "break" ? "break" : "wait");
    assert.ok(verify(run, parseExpectation(text, file)).every((v) => v.ok), "the unchanged file passes");
    const { checked, survivors } = survivingChanges(doc, (changed) => {
      try {
        return verify(run, parseExpectation(changed, file)).some((v) => !v.ok);
      } catch (error) {
        return error instanceof ExpectationError;
      }
    });
    assert.ok(checked > 10, `${checked} values checked`);
    // The peers a file names decide whether it applies: without ts1 it no longer speaks for this run.
    const parsed = parseExpectation(text, file);
    assert.ok(appliesTo(parsed, TS1_PAIR), "the file speaks for ts1 against ts1");
    assert.not.ok(appliesTo({ ...parsed, clients: ["ts1-changed"] }, TS1_PAIR));
    assert.not.ok(appliesTo({ ...parsed, servers: ["ts1-changed"] }, TS1_PAIR));
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
