// The receive-loop demos of notebook 04 (lab/demos/loops/): really run, in TypeScript and in
// Python. The wrong loop's nested request fails at its limit with the reply read only after;
// the right loop's completes and the call computes. Checked by order of lines, never by time.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runNotebooks } from "../lab/notebooks/index.js";
import { runFile } from "../lab/notebooks/programs.js";

async function story(program: string): Promise<string[]> {
  const output = await runFile("program", program);
  assert.is(output.code, 0, output.stderr);
  return output.stdout.trim().split("\n");
}

/** The index of the first line holding `text`; -1 when none does. */
const at = (lines: string[], text: string) => lines.findIndex((l) => l.includes(text));

for (const [language, main] of [["TypeScript", "lab/demos/loops/main.ts"], ["Python", "lab/demos/loops/main.py"]] as const) {
  test(`${language}: the wrong loop fails its nested request; its reply is read only after the limit`, async () => {
    const lines = await story(`${main} wrong`);
    const answered = at(lines, "server: answers tools/list");
    const timedOut = at(lines, "client: tools/list #2 timed out");
    const dropped = at(lines, "reads the reply to tools/list #2 only now");
    assert.ok(answered >= 0 && answered < timedOut && timedOut < dropped, lines.join("\n"));
    assert.is(at(lines, "tools/list answered inside the callback"), -1);
    assert.ok(lines.includes('client: tools/call ended: {"value":null,"action":"cancel"}'), lines.join("\n"));
    assert.is(lines.at(-1), "client: the nested request failed");
  });

  test(`${language}: the right loop reads the nested reply while the callback waits; the call computes 21`, async () => {
    const lines = await story(`${main} right`);
    assert.ok(at(lines, "server: answers tools/list") < at(lines, "tools/list answered inside the callback"), lines.join("\n"));
    assert.is(at(lines, "timed out"), -1);
    assert.ok(lines.includes('client: tools/call ended: {"value":21}'), lines.join("\n"));
    assert.is(lines.at(-1), "client: the nested request completed");
  });

  test(`${language}: a loop the demo does not know is one line and exit 2`, async () => {
    const output = await runFile("program", `${main} sideways`);
    assert.is(output.code, 2);
    assert.is(output.stderr.trim().split("\n").length, 1, output.stderr);
  });
}

test("a program block naming no file of the project is refused with exit 2", async () => {
  for (const run of ["../outside.ts", "lab/demos/loops/none.ts", "README.md"]) assert.is((await runFile("program", run)).code, 2, run);
});

test("a program block is written from the real run, and --check names a corrupted line of it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-loops-"));
  const path = join(dir, "nb.md");
  const quiet = { log: () => {}, concurrency: 1 };
  try {
    // the Python demo: three runs of it cost less than of the TypeScript one (no tsx start)
    writeFileSync(path, '# x\n\n<!-- lab:output run="lab/demos/loops/main.py right" show="program" -->\n<!-- /lab:output -->\n');
    assert.is((await runNotebooks({ dir, check: false, ...quiet })).updated, 1);
    const written = readFileSync(path, "utf8");
    assert.ok(written.includes("$ python3 lab/demos/loops/main.py right\nclient: reads with the right loop"), written);
    assert.is((await runNotebooks({ dir, check: true, ...quiet })).code, 0);
    writeFileSync(path, written.replace('{"value":21}', '{"value":22}'));
    const checked = await runNotebooks({ dir, check: true, ...quiet });
    assert.is(checked.mismatches.length, 1);
    assert.is(checked.mismatches[0]!.fresh, 'client: tools/call ended: {"value":21}');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
