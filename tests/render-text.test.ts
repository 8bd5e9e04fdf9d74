// Text the lab prints about a run: an SDK error text shortened at a JSON boundary (never
// mid-token), the stdio swimlane's header saying the server is another process, and bench's
// goals saying met or MISSED.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { goalLine, verdict } from "../lab/bench/index.js";
import { testCounts } from "../lab/bench/tests.js";
import { parseCommand, read } from "../lab/cli/args.js";
import { commandSpec } from "../lab/cli/commands.js";
import { shortenText } from "../lab/render/shorten.js";
import { renderSwimlane, SERVER_ELSEWHERE } from "../lab/render/swimlane.js";
import type { TimelineEvent } from "../lab/history/timeline.js";
import { memoryRun } from "./support/runs.js";

const ECHO = `Received a response for an unknown message ID: {"result":{"tools":[{"name":"calculate","inputSchema":{"type":"object"}}]},"jsonrpc":"2.0","id":3}`;

test("shortenText keeps the echoed JSON's shape and elides whole values, never cutting a token", () => {
  assert.is(shortenText(ECHO, 500), ECHO);
  assert.is(shortenText(ECHO, 100), `Received a response for an unknown message ID: {"result":{"tools":[{…}]},"jsonrpc":"2.0","id":3}`);
  assert.is(shortenText(ECHO, 70), `Received a response for an unknown message ID: {"result":{…},…}`);
  assert.is(shortenText(ECHO, 55), `Received a response for an unknown message ID: {…}`);
  assert.is(shortenText("a plain text with no JSON in it at all", 20), "a plain text with…");
  for (const max of [40, 55, 60, 70, 85, 100, 110]) {
    const short = shortenText(ECHO, max);
    assert.ok(short.length <= max, `${max}: ${short}`);
    // what is left of the JSON is JSON once each elision is read as a value
    const json = short.slice(short.indexOf("{")).replace(/,…/g, "").replace(/\{…\}|\[…\]/g, "null");
    JSON.parse(json);
  }
});

test("the swimlane of a real in-memory run has a server lane; without server events the header says why", async () => {
  const run = await memoryRun("nested", "serial");
  const header = (events: TimelineEvent[]) => renderSwimlane({ events, wire: run.wire }, { color: false }).split("\n")[0]!;
  assert.ok(header(run.events).endsWith("│ server"));
  // what the parent of a stdio child records: its own side only
  const clientOnly = run.events.filter((e) => e.side === "client");
  assert.ok(header(clientOnly).endsWith(`│ ${SERVER_ELSEWHERE}`), header(clientOnly));
  assert.match(SERVER_ELSEWHERE, "another process");
  // The swimlane tells an SDK error in the words the pictures use (story.ts), shortened at a JSON boundary.
  const message = renderSwimlane(run, { color: false }).split("\n").find((l) => l.includes("SDK onerror"))!;
  assert.match(message, /unknown message ID: \{.*\}$/);
  assert.not.match(message, /[^}]$/);
});

test("bench: each goal says met or MISSED; --strict is the only thing that makes a miss fail", () => {
  assert.is(goalLine("x 12 ms", { figure: "session", goal: "< 25 ms", met: true }), "x 12 ms   (goal < 25 ms: met)");
  assert.is(goalLine("x 30 ms", { figure: "session", goal: "< 25 ms", met: false }), "x 30 ms   (goal < 25 ms: MISSED)");
  const bench = commandSpec("bench")!;
  assert.is(read.flag(parseCommand(bench, []), "strict"), false);
  assert.is(read.flag(parseCommand(bench, ["--strict"]), "strict"), true);
  assert.is(parseCommand(bench, ["--help"]).help, true);
  assert.throws(() => parseCommand(bench, ["--strict=yes"]), /takes no value/);
  assert.is(read.flag(parseCommand(bench, ["--no-tests"]), "no-tests"), true);
});

test("bench: a figure over its goal is MISSED, named in the closing line, and makes --strict exit 1 (only --strict)", () => {
  const met = { figure: "card", goal: "< 90 s", met: true };
  const over = { figure: "py client start", goal: "<= 1.3x", met: false };
  assert.equal(verdict([met], true), { text: "bench: 1 goals, all met", exitCode: 0 });
  const strict = verdict([met, over], true);
  assert.is(strict.exitCode, 1);
  assert.is(strict.text, "bench: 2 goals, 1 MISSED (py client start <= 1.3x)");
  const lenient = verdict([met, over], false);
  assert.is(lenient.exitCode, 0);
  assert.match(lenient.text, /1 MISSED \(py client start <= 1\.3x\); exit 0 without --strict$/);
});

test("bench: npm test's counts are read from its one summary, with each FAIL line; a run without one has none", () => {
  const output = '── test group 1 of 4 (exit 1, 30 s) ──\n  • ✘ •\n   FAIL  "links resolve"\n    EISDIR\n\n  Total:     812\n  Passed:    810\n  Skipped:   3\n  Duration:  41000ms\n';
  assert.equal(testCounts(output), { total: 812, passed: 810, skipped: 3, failed: ['FAIL "links resolve"'] });
  assert.equal(testCounts("npm ERR! missing script: test\n"), { total: undefined, passed: undefined, skipped: undefined, failed: [] });
});

test.run();
