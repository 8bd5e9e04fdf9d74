// The command line as a user meets it: usage, messages, exit codes and what a run prints.
// In this process (runMain) except where the process boundary is the point (runCli).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cpSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { parseCommand, renderHelp, runArgs, TRANSPORT_CHOICES } from "../lab/cli/args.js";
import { COMMAND_SPECS, commandSpec, RUN_SPEC } from "../lab/cli/commands.js";
import { TRANSPORT_NAMES } from "../lab/transports/index.js";
import { ROOT, runCli, runMain } from "./support/cli.js";

const STACK = /^\s+at /m;

function withDir<T>(prefix: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return work(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

test("the real CLI: an unknown scenario exits 2 naming the valid ones, in one message, no stack trace", () => {
  const r = runCli(["nope"]);
  assert.is(r.code, 2);
  assert.match(r.stderr, /^error: unknown scenario 'nope'\. Valid: nested, prefetch/);
  assert.is(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
  assert.not.match(r.stderr, STACK);
});

test("bad options exit 2 with a message naming the option", async () => {
  for (const [args, message] of [
    [["nested", "--loop", "threads"], "--loop must be sdk, serial or both, not 'threads'"],
    [["nested", "--dispatch", "serial"], "--dispatch is now --loop"],
    [["card", "--dispatch=sdk"], "--dispatch is now --loop"],
    [["nested", "--repeat", "0"], "--repeat must be a whole number from 1 to 100, not '0'"],
    [["nested", "--repeat", "1e1"], "--repeat must be a whole number from 1 to 100, not '1e1'"],
    [["nested", "--repeat=2.0"], "not '2.0'"],
    [["nested", "--frobnicate"], "unknown option '--frobnicate'"],
    [["nested", "--json=yes"], "--json takes no value"],
    [["nested", "--out"], "--out needs a value"],
    [["nested", "--out="], "--out needs a value"],
    [["list", "--bogus"], "list: unknown option '--bogus'"],
    [["list", "nested"], "list takes no arguments, not 'nested'"],
    [["bench", "--bogus"], "bench: unknown option '--bogus'"],
    [["soak", "--bogus"], "soak: unknown option '--bogus'"],
    [["soak", "--runs", "1e1"], "--runs must be a whole number"],
    [["soak", "--load=-1"], "--load must be a whole number from 0 to 16, not '-1'"],
    [["contract", "--bogus"], "contract: unknown option '--bogus'"],
    [["notebooks", "--bogus"], "notebooks: unknown option '--bogus'"],
    [["card", "--bogus"], "card: unknown option '--bogus'"],
    [["card", "--loop", "threads"], "card: --loop must be sdk, serial or both, not 'threads'"],
    [["clean", "--keep", "x"], "clean: --keep must be a whole number"],
    [["serve", "--port", "1"], "serve: --port goes with --http"],
    [["against", "--tool", "x"], "against: give the command that starts your stdio server after --"],
    [["against", "--tool", "x", "--args", "[1]", "--", "x"], "against: --args takes a JSON object"],
    [["mutate"], "mutate: name DIR"],
    [["vocabulary", "--expected", "/no/such/dir"], "vocabulary: --expected: no folder /no/such/dir"],
    [["docs", "--check=yes"], "docs: --check takes no value"],
    [["peers", "--strict", "x"], "peers takes no arguments, not 'x'"],
  ] as const) {
    const r = await runMain([...args]);
    assert.is(r.code, 2, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, message, args.join(" "));
    assert.is(r.stderr.split("\n").length, 1, `one line: ${r.stderr}`);
    assert.match(r.stderr, /\(usage: tsx lab\/run\.ts (\w+ )?--help\)$/);
    assert.is(r.threw, undefined);
  }
});

test("--expected naming a file says it is not a folder; a missing one says there is none", async () => {
  const file = join(ROOT, "package.json");
  const r = await runMain(["nested", "--expected", file]);
  assert.is(r.code, 2);
  assert.match(r.stderr, `--expected: ${file} is not a folder`);
  assert.match((await runMain(["nested", "--expected=/no/such/dir"])).stderr, "--expected: no folder /no/such/dir");
});

test("--option=value is the same as --option value, for every option", () => {
  const spaced = runArgs(parseCommand(RUN_SPEC, ["nested", "--loop", "serial", "--transport", "memory", "--repeat", "3", "--on-deadlock", "break", "--out", "x", "--expected", ROOT]));
  const joined = runArgs(parseCommand(RUN_SPEC, ["nested", "--loop=serial", "--transport=memory", "--repeat=3", "--on-deadlock=break", "--out=x", `--expected=${ROOT}`]));
  assert.equal(joined, spaced);
  assert.equal(spaced.loops, ["serial"]);
  assert.is(spaced.repeat, 3);
});

test("--help after every command prints its usage and runs nothing", async () => {
  for (const args of [["--help"], ["nested", "--help"], ["all", "-h"], ...COMMAND_SPECS.map((c) => [c.name, "--help"]), ["against", "--help", "--", "x"]]) {
    const r = await runMain(args);
    assert.is(r.code, 0, args.join(" "));
    assert.match(r.stdout, /^usage: tsx lab\/run\.ts/, args.join(" "));
    // nothing ran: no session, benchmark or check printed a line of its own
    assert.not.match(r.stdout, /callback #\d+ entered|^ {2}PASS |\(goal .*: (met|MISSED)\)|^\d+ passed, \d+ failed$|all match a fresh run/m, args.join(" "));
  }
});

test("every command's --help is rendered from its option data: each option named once, with its help", async () => {
  for (const spec of COMMAND_SPECS) {
    const r = await runMain([spec.name, "-h"]);
    assert.is(r.stdout, renderHelp(spec), spec.name);
    for (const o of spec.options) assert.ok(r.stdout.includes(`--${o.name}`) && r.stdout.includes(o.help), `${spec.name} --${o.name}`);
  }
  assert.ok((await runMain(["--help"])).stdout.includes("--on-deadlock wait|break"));
});

test("one meaning of --transport for every command: both is memory and stdio, all is every transport", () => {
  assert.equal([...TRANSPORT_CHOICES], TRANSPORT_NAMES(), "the parser's transports are the lab's");
  for (const spec of [RUN_SPEC, commandSpec("soak")!, commandSpec("contract")!]) {
    const args = spec === RUN_SPEC ? ["nested"] : [];
    assert.equal(parseCommand(spec, [...args, "--transport", "both"]).values.get("transport"), ["memory", "stdio"], spec.name);
    assert.equal(parseCommand(spec, [...args, "--transport=all"]).values.get("transport"), TRANSPORT_NAMES(), spec.name);
  }
  assert.equal(parseCommand(commandSpec("soak")!, []).values.get("transport"), ["memory"], "soak's default stays memory");
});

test("nested under serial shows the held reply, the timeout, the late dispatch and the recovery, and says where its output went", () =>
  withDir("lab-out-", async (out) => {
    const r = await runMain(["nested", "--loop=serial", "--transport", "memory", "--repeat", "1", "--out", out]);
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stdout, /HELD in client queue behind elicitation\/create #0/);
    assert.match(r.stdout, /TIMEOUT \(the SDK's request limit\): nested tools\/list failed -32001/);
    assert.match(r.stdout, /LATE: its requester already gave up/);
    assert.match(r.stdout, /SDK onerror: Received a response for an unknown message ID: \{/);
    assert.match(r.stdout, /recovery = calculated \(21\)/);
    // the invocation's own folder in the store at out, which latest names
    const mine = realpathSync(join(out, "latest"));
    assert.match(mine, /\/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z-nested$/);
    assert.match(r.stdout, `\nrun output in ${mine}/: nested.serial.json, nested.serial.memory-1.svg\n`);
    const report = JSON.parse(readFileSync(join(mine, "nested.serial.json"), "utf8"));
    assert.is(report.versions.sdk, "1.32.2");
    assert.ok(report.runs[0].wire.length > 10);
    assert.equal(readdirSync(mine).sort(), ["index.html", "nested.serial.json", "nested.serial.memory-1.html", "nested.serial.memory-1.svg"]);
    assert.equal(readdirSync(out).sort(), [basename(mine), "index.html", "latest"]);
  }));

test("--on-deadlock break shows in the run header, the summary line and --json", () =>
  withDir("lab-out-", async (out) => {
    const args = ["nested", "--loop", "serial", "--on-deadlock", "break", "--transport", "memory", "--repeat", "1", "--out", out];
    const text = await runMain(args);
    assert.is(text.code, 0, text.stderr);
    assert.match(text.stdout, /^== nested · serial \(.*\) · --on-deadlock break · memory · repeat 1 · protocol 2025-11-25 ==$/m);
    assert.match(text.stdout, /^ {2}PASS nested +serial\+break +memory +#1 /m);
    const json = await runMain([...args, "--json"]);
    const [summary] = JSON.parse(json.stdout);
    assert.is(summary.onDeadlock, "break");
    assert.is(summary.output.report, join(realpathSync(join(out, "latest")), "nested.serial.break.json"));
  }));

test("--json carries the parity verdicts of both sides", () =>
  withDir("lab-out-", async (out) => {
    const r = await runMain(["fixed-fixture", "--loop", "sdk", "--transport", "both", "--repeat", "1", "--json", "--out", out]);
    assert.is(r.code, 0, r.stderr);
    const [summary] = JSON.parse(r.stdout);
    assert.equal(summary.parity.map((p: { repeat: number; ok: boolean }) => [p.repeat, p.ok]), [[1, true]]);
    assert.equal(summary.parity[0].client, { ok: true, firstDifference: null });
    assert.equal(summary.parity[0].server, { ok: true, firstDifference: null });
  }));

test("a failing expectation exits 1, keeps JSON and SVG, and names the failing check after the summary", () =>
  withDir("lab-expected-", async (expected) => {
    cpSync(join(ROOT, "expected"), expected, { recursive: true });
    const file = join(expected, "fixed-fixture.sdk.json");
    const doc = JSON.parse(readFileSync(file, "utf8"));
    doc.results.first.value = 22; // a wrong hand-written value
    writeFileSync(file, JSON.stringify(doc));
    const out = join(expected, "out");
    const r = await runMain(["fixed-fixture", "--loop", "sdk", "--transport", "memory", "--repeat", "1", "--expected", expected, "--out", out]);
    assert.is(r.code, 1, r.stderr);
    assert.match(r.stdout, "$.first.value: expected integer 22, got integer 21");
    const summary = r.stdout.slice(r.stdout.lastIndexOf("\nsummary\n"));
    assert.match(summary, "\nfailing checks\n  FAIL fixed-fixture · sdk · memory #1\n      results (type-aware)\n");
    const report = JSON.parse(readFileSync(join(out, "latest", "fixed-fixture.sdk.json"), "utf8"));
    assert.is(report.ok, false);
    assert.is(report.expectedFile, `<tmp>${file.slice(tmpdir().length)}`, "the expectation it used, with no path of this machine");
    // the difference as data, in the report and in --json: path, expected, actual, why
    const want = [{ path: "$.first.value", expected: 22, actual: 21, why: "value" }];
    assert.equal(report.runs[0].verdicts.find((v: { check: string }) => v.check === "results (type-aware)").differences, want);
    const json = await runMain(["fixed-fixture", "--loop", "sdk", "--transport", "memory", "--repeat", "1", "--expected", expected, "--out", out, "--json"]);
    assert.is(json.code, 1, json.stderr);
    assert.equal(JSON.parse(json.stdout)[0].runs[0].failed[0].differences, want, "--json carries the difference");
    assert.ok(report.runs[0].wire.length > 0, "the evidence is kept");
    assert.ok(readdirSync(join(out, "latest")).some((f) => f.endsWith(".svg")));
  }));

test("a malformed expectation exits 2 naming the file and the path inside it", () =>
  withDir("lab-expected-", async (expected) => {
    cpSync(join(ROOT, "expected"), expected, { recursive: true });
    const file = join(expected, "prefetch.serial.json");
    const doc = JSON.parse(readFileSync(file, "utf8"));
    doc.wire["tools/list"] = "one";
    writeFileSync(file, JSON.stringify(doc));
    const r = await runMain(["prefetch", "--loop", "serial", "--transport", "memory", "--expected", expected]);
    assert.is(r.code, 2);
    assert.match(r.stderr, file);
    assert.match(r.stderr, "$.wire.tools/list");
    assert.is(r.stderr.split("\n").length, 1, r.stderr);
  }));

test("an expected file that still says \"dispatch\" is refused in one line naming the file (the key is \"loop\")", () =>
  withDir("lab-expected-", async (expected) => {
    cpSync(join(ROOT, "expected"), expected, { recursive: true });
    const file = join(expected, "prefetch.serial.json");
    const { loop, ...rest } = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ dispatch: loop, ...rest }));
    const r = await runMain(["prefetch", "--loop", "serial", "--transport", "memory", "--expected", expected]);
    assert.is(r.code, 2);
    assert.is(r.stderr, `error: ${file}: the key "dispatch" is now "loop" (the same sdk or serial)`);
  }));

test("list prints every scenario with what it shows", async () => {
  const r = await runMain(["list"]);
  assert.is(r.code, 0);
  assert.match(r.stdout, /nested\s+callback #1 awaits tools\/list/);
});

test.run();
