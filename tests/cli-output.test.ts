// Run output and I/O errors: a bad --out is found before any session runs (exit 2, one line
// naming the path and the reason, no stack trace); a write that fails anyway keeps what was
// printed and ends with one line, exit 2; --expected runs never touch the default output folder.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RUN_OUTPUT_DIR } from "../lab/paths.js";
import { ROOT, runCli, runMain } from "./support/cli.js";

const RUN = ["prefetch", "--dispatch", "sdk", "--transport", "memory", "--repeat", "1"];
const STACK = /^\s+at /m;

const scratch = mkdtempSync(join(tmpdir(), "lab-cli-output-"));
const aFile = join(scratch, "a-file");
writeFileSync(aFile, "not a folder");
const underAFile = join(aFile, "out");
// A folder this process cannot write in: permission bits stop anyone but root; as root, a
// sysfs folder refuses new files whatever the bits say.
const locked = join(scratch, "locked");
mkdirSync(locked);
chmodSync(locked, 0o555);
const unwritable = process.getuid?.() === 0 ? "/sys/kernel" : locked;

const BAD_OUT: [string, string, RegExp][] = [
  ["names a file", aFile, new RegExp(`^error: --out ${aFile}: is a file, not a folder$`)],
  ["lies under a file", underAFile, new RegExp(`^error: --out ${underAFile}: cannot create the folder: a part of the path is a file, not a folder \\(ENOTDIR\\)$`)],
  ["cannot be written", unwritable, new RegExp(`^error: --out ${unwritable}: cannot write in this folder: (permission denied \\(EACCES\\)|operation not permitted \\(EPERM\\)|read-only file system \\(EROFS\\))$`)],
];

for (const [what, out, message] of BAD_OUT) {
  test(`--out that ${what}: exit 2 before any session, one line naming the path and the reason`, async () => {
    if (!existsSync(out) && out === unwritable) throw new Error(`${out} is missing: no unwritable folder to test with`);
    for (const command of [RUN, ["contract", "accept_valid", "--transport", "memory"], ["soak", "--runs", "1", "--transport", "memory"]]) {
      const r = await runMain([...command, "--out", out]);
      assert.is(r.code, 2, `${command[0]}: ${r.stderr}`);
      assert.is(r.threw, undefined);
      assert.is(r.stdout, "", `${command[0]}: nothing ran, nothing printed`);
      assert.match(r.stderr, message, command[0]);
    }
  });
}

test("the real CLI: a bad --out is one line on stderr and exit 2, no stack trace", () => {
  const r = runCli([...RUN, "--out", aFile]);
  assert.is(r.code, 2);
  assert.is(r.stdout, "");
  assert.equal(r.stderr.trimEnd().split("\n"), [`error: --out ${aFile}: is a file, not a folder`]);
  assert.not.match(r.stderr, STACK);
});

test("a write that fails after the run: the run is still printed, then one line naming the file, exit 2", async () => {
  const out = join(scratch, "taken");
  // the report's own name is taken by a folder: the folder is writable, this one file is not
  mkdirSync(join(out, "prefetch.sdk.json"), { recursive: true });
  const r = await runMain([...RUN, "--out", out]);
  assert.is(r.code, 2, r.stdout);
  assert.is(r.threw, undefined);
  assert.match(r.stdout, "== prefetch · sdk", "what ran is printed");
  assert.match(r.stdout, "callback #1 answers accept");
  assert.equal(r.stderr.split("\n"), [`error: cannot write ${join(out, "prefetch.sdk.json")}: a folder is in the way (EISDIR)`]);
  assert.equal(readdirSync(out), ["prefetch.sdk.json"], "no temp file left behind");
  const json = await runMain([...RUN, "--json", "--out", out]);
  assert.is(json.code, 2);
  assert.is(JSON.parse(json.stdout)[0].scenario, "prefetch", "--json prints what ran before the error");
});

/** Every file in the default output folder with its modification time. */
function snapshot(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true }).map((f) => `${String(f)} ${statSync(join(dir, String(f))).mtimeMs}`).sort();
}

test("--expected DIR runs write to DIR/run-output/, and leave the default output folder untouched", async () => {
  const expected = join(scratch, "mine");
  cpSync(join(ROOT, "expected"), expected, { recursive: true });
  const before = snapshot(RUN_OUTPUT_DIR);
  const run = await runMain([...RUN, "--expected", expected]);
  assert.is(run.code, 0, run.stderr);
  const contract = await runMain(["contract", "accept_valid", "--transport", "memory", "--expected", expected]);
  assert.is(contract.code, 0, contract.stderr);
  assert.equal(snapshot(RUN_OUTPUT_DIR), before);
  assert.equal(readdirSync(join(expected, "run-output")).sort(), ["contract.json", "index.html", "prefetch.sdk.json", "prefetch.sdk.memory-1.svg"]);
  assert.match(run.stdout, `run output in ${join(expected, "run-output")}/`);
});

test.after(() => {
  chmodSync(locked, 0o755);
  rmSync(scratch, { recursive: true, force: true });
});

test.run();
