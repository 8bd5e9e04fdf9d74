// The notebooks engine: the committed notebooks match fresh runs; a corrupted output block is
// caught and named; malformed markers are errors naming file and line; rewriting touches only
// the blocks, never the prose.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runNotebooks } from "../lab/notebooks/index.js";
import { NotebookError, parseNotebook } from "../lab/notebooks/markers.js";
import { normalise } from "../lab/notebooks/normalise.js";
import { cliRunner } from "../lab/notebooks/runs.js";
import { ROOT, runMain } from "./support/cli.js";
import { sharedRunner as shared } from "./support/notebook-runs.js";

const NOTEBOOK = "01-callback-deadlock.md";
/** The shared runner captures the console: one run at a time. */
const ONE_AT_A_TIME = 1;

/** A folder holding only notebook 01 (and its pictures): the engine checks every notebook in the folder it is given. */
function copyNotebook(): string {
  const dir = mkdtempSync(join(tmpdir(), "lab-notebooks-"));
  cpSync(join(ROOT, "notebooks", NOTEBOOK), join(dir, NOTEBOOK));
  cpSync(join(ROOT, "notebooks", "pictures"), join(dir, "pictures"), { recursive: true }); // its picture block's file
  return dir;
}

const prose = (text: string) => parseNotebook("x", text).lines.filter((_, i, all) => {
  // lines outside output blocks (markers included)
  const blocks = parseNotebook("x", all.join("\n")).blocks;
  return !blocks.some((b) => i + 1 > b.open && i + 1 < b.close);
});

// Every committed notebook against a fresh run of each of its blocks is .ci/run's
// `notebooks --check` (about 30 s of CLI runs); here, the check itself is shown to work on
// notebook 01's real runs, and to fail on a corrupted copy.

test("a corrupted output block fails --check, naming the notebook, the block and the line; times alone do not", async () => {
  const dir = copyNotebook();
  try {
    const path = join(dir, NOTEBOOK);
    const original = readFileSync(path, "utf8");
    const { blocks } = parseNotebook(NOTEBOOK, original);
    const results = blocks.find((b) => b.show === "results" && b.run.startsWith("nested --loop serial"))!;
    const lines = original.split("\n");
    // A real change: the recovery result.
    const row = lines.findIndex((l, i) => i >= results.open && l.includes("| recovery | calculated | true | 21 |"));
    assert.ok(row > 0);
    lines[row] = lines[row]!.replace("| 21 |", "| 22 |");
    // Not a change: a different time in a swimlane.
    const timeLine = lines.findIndex((l) => /^\s+\d+\.\d {2}/.test(l));
    lines[timeLine] = lines[timeLine]!.replace(/\d+\.\d/, "9999.9");
    writeFileSync(path, lines.join("\n"));

    const log: string[] = [];
    const result = await runNotebooks({ dir, check: true, runner: shared, concurrency: ONE_AT_A_TIME, log: (l) => log.push(l) });
    assert.is(result.code, 1);
    assert.is(result.mismatches.length, 1, log.join("\n"));
    const [m] = result.mismatches;
    assert.is(m!.block.show, "results");
    assert.is(m!.block.run, "nested --loop serial --transport memory --repeat 1");
    assert.is(m!.line, row + 1);
    const said = log.join("\n");
    assert.match(said, `${NOTEBOOK}:${row + 1}: output block run="nested --loop serial --transport memory --repeat 1" show="results"`);
    assert.match(said, "| 22 |");
    assert.is(readFileSync(path, "utf8"), lines.join("\n"), "--check writes nothing");

    // Rewriting fixes the block and leaves every prose line as it was.
    const rewrite = await runNotebooks({ dir, check: false, runner: shared, concurrency: ONE_AT_A_TIME, log: () => {} });
    assert.is(rewrite.code, 0);
    const after = readFileSync(path, "utf8");
    assert.equal(prose(after), prose(original));
    assert.not.match(after, "| 22 |");
    assert.is((await runNotebooks({ dir, check: true, runner: shared, concurrency: ONE_AT_A_TIME, log: () => {} })).code, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("malformed markers are errors naming file and line", () => {
  const cases: [string, number, RegExp][] = [
    ['intro\n<!-- lab:output run="nested" show="photo" -->\n<!-- /lab:output -->', 2, /unknown show="photo".*swimlane/],
    ['<!-- lab:output run="nested" -->\n<!-- /lab:output -->', 1, /needs show=/],
    ['<!-- lab:output show="results" -->\n<!-- /lab:output -->', 1, /needs run=/],
    ['<!-- lab:output run=nested show="results" -->\n<!-- /lab:output -->', 1, /malformed/],
    ['<!-- lab:output run="nested" show="results" colour="red" -->\n<!-- /lab:output -->', 1, /unknown attribute 'colour'/],
    ['a\nb\n<!-- lab:output run="nested" show="results" -->\nbody', 3, /never closed/],
    ["a\n<!-- /lab:output -->", 2, /without an opening/],
    ['<!-- lab:output run="nested" show="results" -->\n<!-- lab:output run="nested" show="results" -->', 2, /inside the output block opened at line 1/],
    ["<!-- lab:outptu -->", 1, /malformed marker/],
    ['<!-- lab:output run="nested --out x" show="results" -->\n<!-- /lab:output -->', 1, /--out/],
  ];
  for (const [text, line, message] of cases) {
    try {
      parseNotebook("nb.md", text);
      assert.unreachable(text);
    } catch (error) {
      assert.instance(error, NotebookError, text);
      const e = error as NotebookError;
      assert.is(e.line, line, text);
      assert.match(e.message, `nb.md:${line}: `);
      assert.match(e.message, message);
    }
  }
});

test("markers in fenced code in the prose are text; blocks parse with their run and show", () => {
  const text = [
    "```md",
    '<!-- lab:output run="nested" show="nonsense" -->',
    "```",
    '<!-- lab:output run="prefetch --loop sdk" show="verdicts" -->',
    "```text",
    "<!-- not a marker, inside the block -->",
    "```",
    "<!-- /lab:output -->",
  ].join("\n");
  const { blocks } = parseNotebook("nb.md", text);
  assert.equal(
    blocks.map((b) => [b.open, b.close, b.run, b.show, b.body.length]),
    [[4, 8, "prefetch --loop sdk", "verdicts", 3]],
  );
});

test("normalise erases times, durations, pids and the texts only timing decides, and nothing else", () => {
  assert.equal(
    normalise([
      "     16.5  LOOP HELD by elicitation/create #0",
      "     16.6  dispatched result tools/call #2 after 1.3 ms in queue   ",
      "     16.7  dispatched result tools/call #4                  │                     │",
      "     16.8                          │                     │ dispatched tools/call #4",
      "  588 ms  20/20 checks",
      '"pid": 4242, pid=17',
      "    Note over C,S: ... 504.4 ms pass ...",
      "| 3 | 810.7 | client ──▶ server | tools/list #2 |  |",
      "| fan-out · sdk · memory #1 | 91.5 ms | 133.6 ms (1.5 callbacks) |",
      `build go: built in 29.0 s (13.5 s), wall time 4.2 s, ${tmpdir()}/lab-x1/plan.json 0b6f5d2e-3c1a-4e8b-9f00-123456789abc`,
      "mcp (Python SDK): 3 releases, 1.29.0 to 2.0.0 (listed 2026-12-07T13:07:54.855Z)",
      "",
    ]),
    [
      "<n> LOOP HELD by elicitation/create #0",
      "<n> dispatched result tools/call #2",
      "<n> dispatched result tools/call #4",
      "<n> │ │ dispatched tools/call #4",
      "<n> ms 20/20 checks",
      '"pid": <pid>, pid=<pid>',
      "| 3 | <n> | client ──▶ server | tools/list #2 | |",
      "| fan-out · sdk · memory #1 | <n> ms | <n> ms (<n> callbacks) |",
      "build go: built in <n> s (<n> s), wall time <n> s, <tmp> <uuid>",
      "mcp (Python SDK): 3 releases, 1.29.0 to 2.0.0 (listed <time>)",
    ],
  );
  assert.not.equal(normalise(["| 21 |"]), normalise(["| 22 |"]));
  assert.not.equal(normalise(["tools/list #3"]), normalise(["tools/list #4"]));
  // what does not vary from run to run stays: versions, limits, and numbers in values
  for (const [a, b] of [
    ["Python SDK 1.29.0 client loop", "Python SDK 2.3.0 client loop"],
    ["deadlocked until the 0.5 s limit", "deadlocked until the 9.9 s limit"],
    ["asks for tools/list (limit 0.5 s)", "asks for tools/list (limit 9.9 s)"],
    ["the SDK's request limit (0.5 s, error -32001)", "the SDK's request limit (9.9 s, error -32001)"],
    ["(the callback: 500 ms limit)", "(the callback: 900 ms limit)"],
    ["(limit 500 ms)", "(limit 900 ms)"],
    ["Waited 0.5 seconds.", "Waited 9.9 seconds."],
    ['`{"value":3.5}` |', '`{"value":7.5}` |'],
  ] as const)
    assert.not.equal(normalise([a]), normalise([b]), `${a} vs ${b}`);
});

test("--check reports a changed version and a changed limit, and ignores a changed time and pid", async () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-notebooks-fixed-"));
  const run = "nested --loop serial --transport memory --repeat 1";
  const path = join(dir, "nb.md");
  const check = async (text: string) => {
    writeFileSync(path, text);
    const log: string[] = [];
    const result = await runNotebooks({ dir, check: true, runner: shared, concurrency: ONE_AT_A_TIME, log: (l) => log.push(l) });
    return { code: result.code, said: log.join("\n") };
  };
  try {
    writeFileSync(path, `x\n<!-- lab:output run="${run}" show="command" -->\n<!-- /lab:output -->\n`);
    assert.is((await runNotebooks({ dir, check: false, runner: shared, concurrency: ONE_AT_A_TIME, log: () => {} })).code, 0);
    const fresh = readFileSync(path, "utf8");
    assert.is((await check(fresh)).code, 0);
    // the model's version in the run's header, and the limit in its outcome
    for (const [what, from, to] of [
      ["version", /Python SDK 1\.29\.0/, "Python SDK 2.3.0"],
      ["limit", /\b0\.5 s\b/, "9.9 s"],
    ] as const) {
      assert.match(fresh, from, `the run shows its ${what}`);
      const r = await check(fresh.replace(from, to));
      assert.is(r.code, 1, `a changed ${what} is a difference`);
      assert.match(r.said, `notebook: `);
      assert.match(r.said, to);
    }
    // a swimlane's time, a duration and a pid are not
    const timeLine = fresh.split("\n").find((l) => /^\s+\d+\.\d {2}/.test(l))!;
    const retimed = fresh.replace(timeLine, timeLine.replace(/\d+\.\d/, "9999.9")).replace(/\b\d+(\.\d+)? ms\b/g, "123.4 ms");
    assert.is((await check(retimed)).code, 0);
    assert.equal(normalise(['"pid": 4242']), normalise(['"pid": 17']));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the command: a malformed notebook exits 2 naming file and line; an unknown option exits 2", async () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-notebooks-bad-"));
  try {
    writeFileSync(join(dir, "bad.md"), '# t\n\n<!-- lab:output run="nested" show="pictures" -->\n<!-- /lab:output -->\n');
    const r = await runMain(["notebooks", "--check", `--dir=${dir}`]);
    assert.is(r.code, 2, r.stderr);
    assert.match(r.stderr, /bad\.md:3: unknown show="pictures"/);
    assert.is((await runMain(["notebooks", "--frobnicate"])).code, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a block whose run is not a valid lab command is an error naming the block (the real CLI runner)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-notebooks-run-"));
  try {
    writeFileSync(join(dir, "nb.md"), 'x\n<!-- lab:output run="no-such-scenario" show="command" -->\n<!-- /lab:output -->\n');
    try {
      // the runner a reader's `notebooks` uses: `tsx lab/run.ts <run>` as a child process
      await runNotebooks({ dir, check: true, runner: cliRunner(60_000), log: () => {} });
      assert.unreachable();
    } catch (error) {
      assert.instance(error, NotebookError);
      assert.match((error as Error).message, /nb\.md:2: run="no-such-scenario" is not a valid lab command: error: unknown scenario/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("contract runs, only= and shows the run cannot give: read, filtered, or an error naming the block", async () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-notebooks-only-"));
  const nested = "nested --loop serial --transport memory --repeat 1";
  const failsWith = async (text: string, message: RegExp) => {
    writeFileSync(join(dir, "nb.md"), text);
    try {
      await runNotebooks({ dir, check: true, runner: shared, concurrency: ONE_AT_A_TIME, log: () => {} });
      assert.unreachable(text);
    } catch (error) {
      assert.instance(error, NotebookError, text);
      assert.match((error as Error).message, message);
    }
  };
  try {
    await failsWith(`x\n<!-- lab:output run="${nested}" show="parity" -->\n<!-- /lab:output -->\n`, /nb\.md:2: show="parity" needs runs over both transports/);
    await failsWith(`x\n<!-- lab:output run="${nested}" show="contract" -->\n<!-- /lab:output -->\n`, /nb\.md:2: show="contract" needs a contract run/);
    await failsWith(`x\n<!-- lab:output run="${nested}" show="child" -->\n<!-- /lab:output -->\n`, /nb\.md:2: show="child" needs a run over stdio/);
    await failsWith(`x\n<!-- lab:output run="${nested}" show="results" only="prefetch" -->\n<!-- /lab:output -->\n`, /nb\.md:2: only="prefetch": .* has no prefetch \(it ran nested\)/);
    assert.throws(() => parseNotebook("nb.md", '<!-- lab:output run="nested" show="results" only="" -->\n<!-- /lab:output -->'), /only="" names nothing/);

    // A contract run: its cases are read from contract.json; only= keeps the named one.
    const run = "contract --transport memory";
    writeFileSync(join(dir, "nb.md"), `x\n<!-- lab:output run="${run}" show="contract" only="decline_with_spurious_data" -->\n<!-- /lab:output -->\n`);
    assert.is((await runNotebooks({ dir, check: false, runner: shared, concurrency: ONE_AT_A_TIME, log: () => {} })).code, 0);
    const body = parseNotebook("nb.md", readFileSync(join(dir, "nb.md"), "utf8")).blocks[0]!.body;
    assert.equal(body.slice(2), [
      '| decline_with_spurious_data | decline | `{"action":"decline","content":{"units":3,"unit_value":7}}` | declined | false | null | - |',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
