// `lab mutate`: every value of a peer-specific expected file, changed one at a time, fails against
// the real run the store kept (no run repeated); evidence that no longer holds is named, exit 1.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mutateStore } from "../lab/cli/mutate.js";
import { PY1_CLIENT } from "../lab/peers/py1/index.js";
import { runMain } from "./support/cli.js";
import { needs } from "./support/needs.js";

const out = mkdtempSync(join(tmpdir(), "lab-mutate-"));
// started inside the first test, never at import: runMain captures the console of this process,
// and uvu imports every file of its group before the tests of the first one run
let running: ReturnType<typeof runMain> | undefined;
const stored = () => (running ??= runMain(["nested", "--client", "py1", "--server", "ts1", "--transport", "stdio", "--repeat", "1", "--out", out]));

needs(PY1_CLIENT)("a real py1 run's expected file: every value matters against the stored evidence", async () => {
  const run = await stored();
  assert.is(run.code, 0, run.stderr);
  const results = mutateStore(out);
  const mine = results.find((r) => r.file.endsWith("expected/nested.sdk.py1.ts1.json"));
  assert.ok(mine, results.map((r) => r.file).join(", "));
  assert.is(mine.unchangedFails, undefined);
  assert.ok(mine.checked > 20, `${mine.checked} values`);
  assert.equal(mine.survivors, []);
  const cli = await runMain(["mutate", out]);
  assert.is(cli.code, 0, cli.stdout + cli.stderr);
  assert.match(cli.stdout, /expected\/nested\.sdk\.py1\.ts1\.json: \d+ values against 1 run\(s\): every change noticed/);
});

needs(PY1_CLIENT)("evidence that no longer holds (the nested reply cut from the wire) is named, and mutate exits 1", async () => {
  await stored();
  const dir = join(out, "latest");
  const name = readdirSync(dir).find((f) => f.endsWith(".json") && f.startsWith("nested."))!;
  const report = JSON.parse(readFileSync(join(dir, name), "utf8"));
  report.runs[0].wire = report.runs[0].wire.filter((f: { label: { method?: string } }) => f.label.method !== "tools/list");
  writeFileSync(join(dir, name), JSON.stringify(report));
  const mine = mutateStore(out).find((r) => r.file.endsWith("expected/nested.sdk.py1.ts1.json"))!;
  assert.ok(mine.unchangedFails?.includes("py1 -> ts1 over stdio #1"), JSON.stringify(mine));
  const cli = await runMain(["mutate", out]);
  assert.is(cli.code, 1);
  assert.match(cli.stdout, "UNCHANGED FILE FAILS");
});

test("a folder with nothing stored, and bad usage, are one line each", async () => {
  const empty = mkdtempSync(join(tmpdir(), "lab-mutate-empty-"));
  const none = await runMain(["mutate", empty]);
  assert.is(none.code, 1);
  assert.match(none.stderr, "no stored case report or card");
  const usage = await runMain(["mutate"]);
  assert.is(usage.code, 2);
  assert.not.match(usage.stderr, /^\s+at /m);
  rmSync(empty, { recursive: true, force: true });
});

test.after(() => rmSync(out, { recursive: true, force: true }));
test.run();
