// Run output and I/O errors: a bad --out is found before any session runs (exit 2, one line
// naming the path and the reason, no stack trace); a write that fails anyway keeps what was
// printed and ends with one line, exit 2; --expected runs write to the store, never into DIR.
// The store: --out folders that hold the project's files or hand-written evidence are refused,
// pseudo-filesystems are refused at once, two invocations both stay, latest names the newest.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RUN_OUTPUT_DIR } from "../lab/paths.js";
import { ROOT, runCli, runMain } from "./support/cli.js";
import { scenarioRunner } from "../lab/run.js";

const RUN = ["prefetch", "--loop", "sdk", "--transport", "memory", "--repeat", "1"];
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
const root = process.getuid?.() === 0;
const unwritable = root ? "/sys/kernel" : locked;

const BAD_OUT: [string, string, RegExp][] = [
  ["names a file", aFile, new RegExp(`^error: --out ${aFile}: is a file, not a folder$`)],
  ["lies under a file", underAFile, new RegExp(`^error: --out ${underAFile}: cannot create the folder: a part of the path is a file, not a folder \\(ENOTDIR\\)$`)],
  // as root only a pseudo-filesystem refuses writes, and that is refused before any write is tried
  root
    ? ["cannot be written", unwritable, new RegExp(`^error: --out ${unwritable}: refused: /sys is a pseudo-filesystem \\(a view of the kernel\\), not storage$`)]
    : ["cannot be written", unwritable, new RegExp(`^error: --out ${unwritable}: cannot write in this folder: (permission denied \\(EACCES\\)|operation not permitted \\(EPERM\\)|read-only file system \\(EROFS\\))$`)],
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
  // loaded first, so that main() makes the invocation's folder before its first await
  await scenarioRunner();
  for (const json of [false, true]) {
    const out = join(scratch, `taken-${json}`);
    // main() makes the invocation's folder before its first await; a file then takes its place,
    // so the first write after the session fails
    const running = runMain([...RUN, ...(json ? ["--json"] : []), "--out", out]);
    const dir = realpathSync(join(out, "latest"));
    rmSync(dir, { recursive: true });
    writeFileSync(dir, "in the way");
    const r = await running;
    assert.is(r.code, 2, r.stdout);
    assert.is(r.threw, undefined);
    if (json) assert.is(JSON.parse(r.stdout)[0].scenario, "prefetch", "--json prints what ran before the error");
    else {
      assert.match(r.stdout, "== prefetch · sdk", "what ran is printed");
      assert.match(r.stdout, "callback #1 answers accept");
    }
    assert.equal(r.stderr.split("\n"), [`error: cannot write ${join(dir, "prefetch.sdk.json")}: a part of the path is a file, not a folder (ENOTDIR)`]);
    assert.not.ok(readdirSync(out).some((f) => f.endsWith(".tmp")), "no temp file left behind");
  }
});

/** Every file in a folder with its modification time. */
function snapshot(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true }).map((f) => `${String(f)} ${statSync(join(dir, String(f))).mtimeMs}`).sort();
}

/** The invocation folder a run's summary names (`run output in <dir>/: ...`). */
const named = (stdout: string) => /run output in (\S+)\/:/.exec(stdout)?.[1];

test("--expected DIR runs write to the default store, never into DIR", async () => {
  const expected = join(scratch, "mine");
  cpSync(join(ROOT, "expected"), expected, { recursive: true });
  const before = snapshot(expected);
  const run = await runMain([...RUN, "--expected", expected]);
  assert.is(run.code, 0, run.stderr);
  const contract = await runMain(["contract", "accept_valid", "--transport", "memory", "--json", "--expected", expected]);
  assert.is(contract.code, 0, contract.stderr);
  assert.equal(snapshot(expected), before, "DIR untouched");
  const dir = join(ROOT, named(run.stdout)!);
  assert.ok(dir.startsWith(join(RUN_OUTPUT_DIR, "")), dir);
  assert.equal(readdirSync(dir).sort(), ["index.html", "prefetch.sdk.json", "prefetch.sdk.memory-1.html", "prefetch.sdk.memory-1.svg"]);
  const file = JSON.parse(contract.stdout).output as string;
  assert.ok(file.startsWith(join(RUN_OUTPUT_DIR, "")) && existsSync(file), file);
});

// Folders that hold the project's own files or hand-written evidence: refused in one line, exit 2,
// nothing written (git status stays as it was).
const gitStatus = () => spawnSync("git", ["status", "--porcelain", "--ignored=no"], { cwd: ROOT, encoding: "utf8", timeout: 10_000 }).stdout;
const copyWithExpectation = join(scratch, "evidence-copy");
mkdirSync(copyWithExpectation);
cpSync(join(ROOT, "expected", "nested.sdk.json"), join(copyWithExpectation, "nested.sdk.json"));
const PROTECTED: [string, RegExp][] = [
  [join(ROOT, "expected"), /inside expected\/, which holds the project's tracked files$/],
  [join(ROOT, "expected", "card"), /inside expected\//],
  [ROOT, /holds the project's own files/],
  [join(ROOT, "lab"), /inside lab\//],
  [join(ROOT, "notebooks", "new"), /inside notebooks\//],
  [copyWithExpectation, /holds an expectation file \(nested\.sdk\.json\)/],
];
test("--out at expected/, the repository root, lab/ or a folder holding an expectation file: exit 2, one line, git status clean", async () => {
  const status = gitStatus();
  for (const [out, why] of PROTECTED) {
    for (const command of [RUN, ["contract", "accept_valid", "--transport", "memory"], ["card", "--client", "ts1", "--server", "ts1"]]) {
      const r = await runMain([...command, "--out", out]);
      assert.is(r.code, 2, `${out}: ${r.stdout}`);
      assert.is(r.stdout, "");
      assert.is(r.stderr.split("\n").length, 1, r.stderr);
      assert.match(r.stderr, `error: --out ${out}: refused: `);
      assert.match(r.stderr, why);
    }
  }
  assert.equal(readdirSync(copyWithExpectation), ["nested.sdk.json"]);
  assert.is(gitStatus(), status, "nothing written in the project");
});

test("--out under /proc exits 2 within 5 s, in words, never spins", async () => {
  const line = "error: --out /proc/1/nope: refused: /proc is a pseudo-filesystem (a view of the kernel), not storage";
  // the check itself, in this process (a Node start alone can take seconds on a loaded machine)
  const started = performance.now();
  const r = await runMain([...RUN, "--out", "/proc/1/nope"]);
  assert.is(r.code, 2, r.stderr);
  assert.is(r.stderr, line);
  assert.ok(performance.now() - started < 5_000, `took ${Math.round(performance.now() - started)} ms`);
  // and the real CLI returns (it used to spin at 100 % CPU until killed)
  const cli = runCli([...RUN, "--out", "/proc/1/nope"], 60_000);
  assert.is(cli.code, 2, cli.stderr);
  assert.equal(cli.stderr.trimEnd().split("\n"), [line]);
});

test("two invocations: both folders stay whole, latest names the newer, the store's page lists both", async () => {
  const out = join(scratch, "store");
  const first = await runMain([...RUN, "--out", out]);
  const second = await runMain([...RUN, "--repeat", "2", "--out", out]);
  assert.is(first.code, 0, first.stderr);
  assert.is(second.code, 0, second.stderr);
  const [a, b] = [named(first.stdout)!, named(second.stdout)!];
  assert.is.not(a, b);
  assert.equal(readdirSync(a).sort(), ["index.html", "prefetch.sdk.json", "prefetch.sdk.memory-1.html", "prefetch.sdk.memory-1.svg"]);
  assert.equal(readdirSync(b).sort(), ["index.html", "prefetch.sdk.json", "prefetch.sdk.memory-1.html", "prefetch.sdk.memory-1.svg", "prefetch.sdk.memory-2.html", "prefetch.sdk.memory-2.svg"]);
  assert.is(JSON.parse(readFileSync(join(a, "prefetch.sdk.json"), "utf8")).runs.length, 1, "the first report is not replaced");
  assert.is(readlinkSync(join(out, "latest")), b.split("/").pop());
  const page = readFileSync(join(out, "index.html"), "utf8");
  for (const dir of [a, b]) assert.match(page, `href="${dir.split("/").pop()}/index.html"`);
  const clean = await runMain(["clean", "--keep", "1", "--out", out]);
  assert.is(clean.code, 0, clean.stderr);
  assert.match(clean.stdout, `clean: removed 1 of 2 invocation(s)`);
  assert.not.ok(existsSync(a));
  assert.ok(existsSync(b), "the newest is kept");
});

test("a requested peer that cannot run over the transports is named on stderr with its reason", async () => {
  const r = await runMain(["nested", "--client", "ts1,py", "--transport", "memory", "--repeat", "1", "--out", join(scratch, "peers")]);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stderr, /^not run: nested sdk\.py\.ts1: cannot run over memory: client py runs in its own process$/m);
  for (const line of r.stderr.split("\n")) assert.ok(line.length <= 200, line);
});

test.after(() => {
  chmodSync(locked, 0o755);
  rmSync(scratch, { recursive: true, force: true });
});

test.run();
