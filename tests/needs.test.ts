// A test that needs a peer never passes by checking nothing (tests/support/needs.ts): with the peer
// unable to run, CI=true fails naming it and why; elsewhere each test is a counted skip whose name
// says both, and npm test's runner lists it. Shown on the helper itself and on the real
// rmcp-peer.test.ts with rmcp made unavailable by LAB_TEST_UNAVAILABLE (the real build untouched).
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { buildProblem } from "../lab/peers/cached-build.js";
import { RMCP_BUILD } from "../lab/peers/rmcp/index.js";
import { ROOT } from "./support/cli.js";
import { needs, SKIP_MARK, UNAVAILABLE_ENV, whyNot, type Needed } from "./support/needs.js";

/** A peer whose build is missing: the real buildProblem line for an output that is not there. */
const ABSENT: Needed = { name: "rmcp", unavailable: () => buildProblem({ ...RMCP_BUILD, outputs: [join(ROOT, "build", "no-such-rmcp-client")] }) };
const PRESENT: Needed = { name: "ts1", unavailable: () => undefined };

/** A stand-in for uvu's test: what was registered, and how. */
function recorder() {
  const calls: { how: "test" | "skip"; name: string; handler: () => unknown }[] = [];
  const on = Object.assign((name: string, handler: () => unknown) => void calls.push({ how: "test", name, handler }), {
    skip: (name: string, handler: () => unknown) => void calls.push({ how: "skip", name, handler }),
  }) as unknown as typeof test;
  return { calls, on };
}

/** What `fn` wrote to stdout while it ran. */
function stdoutOf(fn: () => void): string {
  let out = "";
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string) => ((out += chunk), true)) as typeof process.stdout.write;
  try {
    fn();
  } finally {
    process.stdout.write = write;
  }
  return out;
}

test("a peer that can run: the test is registered as written", () => {
  const { calls, on } = recorder();
  const handler = () => undefined;
  const printed = stdoutOf(() => needs([PRESENT], on, true)("it runs", handler));
  assert.equal(calls, [{ how: "test", name: "it runs", handler }]);
  assert.is(printed, "");
});

test("a peer that cannot run, under CI: a test named for the peer and why, which fails saying both", async () => {
  const why = ABSENT.unavailable();
  assert.match(why ?? "", /^rmcp is not built \(build\/no-such-rmcp-client missing\)/);
  const { calls, on } = recorder();
  const ran: string[] = [];
  const peerTest = needs([PRESENT, ABSENT], on, true);
  peerTest("it runs", () => void ran.push("handler"));
  assert.is(peerTest.missing, `rmcp cannot run here: ${why}`);
  assert.equal(calls.map((c) => [c.how, c.name]), [["test", `it runs [rmcp cannot run here: ${why}]`]]);
  try {
    await calls[0]!.handler();
    assert.unreachable("the test passed without its peer");
  } catch (error) {
    assert.match((error as Error).message, `rmcp cannot run here: ${why} (CI=true`);
  }
  assert.equal(ran, [], "the real test body never ran");
});

test("a peer that cannot run, elsewhere: a counted skip whose printed name says the peer and why", () => {
  const { calls, on } = recorder();
  const printed = stdoutOf(() => needs(ABSENT, on, false)("it runs", () => undefined));
  const name = `it runs [skipped: rmcp cannot run here: ${ABSENT.unavailable()}]`;
  assert.equal(calls.map((c) => [c.how, c.name]), [["skip", name]]);
  assert.is(printed, `${SKIP_MARK}${name}\n`);
});

test(`${UNAVAILABLE_ENV} names the peers a run treats as missing, and no others`, () => {
  const before = process.env[UNAVAILABLE_ENV];
  try {
    process.env[UNAVAILABLE_ENV] = "go, ts1";
    assert.is(whyNot(PRESENT), `${UNAVAILABLE_ENV} names it`);
    assert.is(whyNot({ name: "ts2", unavailable: () => undefined }), undefined);
  } finally {
    if (before === undefined) delete process.env[UNAVAILABLE_ENV];
    else process.env[UNAVAILABLE_ENV] = before;
  }
});

/** rmcp-peer.test.ts with rmcp unavailable, through uvu's CLI or npm test's runner (one file). */
function withoutRmcp(ci: boolean, runner: "uvu" | "npm test") {
  // FORCE_COLOR: uvu sets it when this file runs without --no-color, and it would colour the child's tally
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "CI" && k !== "FORCE_COLOR")), [UNAVAILABLE_ENV]: "rmcp", LAB_TEST_FILES: "^rmcp-peer\\.test\\.ts$", ...(ci && { CI: "true" }) };
  const args = runner === "uvu" ? [join(ROOT, "node_modules", "uvu", "bin.js"), "tests", "^rmcp-peer.test.ts$", "--no-color"] : [join(ROOT, "tests", "support", "parallel.ts")];
  const r = spawnSync(process.execPath, ["--import", "tsx", ...args], { cwd: ROOT, encoding: "utf8", timeout: 120_000, env });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}
/** rmcp-peer.test.ts's tests that need the build (the rest read files or a build made up for them) */
const NEEDING = 8;
const NESTED = "rmcp (serve loop: a task per inbound request): nested over stdio against ts1 passes expected/nested.sdk.rmcp.json";

test("rmcp unavailable, plain: its tests are skipped and counted, each named with the peer and why; the rest pass", () => {
  const r = withoutRmcp(false, "uvu");
  assert.is(r.code, 0, r.output);
  assert.match(r.output, new RegExp(`Skipped: +${NEEDING}\\b`));
  assert.match(r.output, `${SKIP_MARK}${NESTED} [skipped: rmcp cannot run here: ${UNAVAILABLE_ENV} names it]`);
  assert.match(r.output, /Total: +3\b/);
});

test("rmcp unavailable, CI=true: its tests fail, each naming the peer and why", () => {
  const r = withoutRmcp(true, "uvu");
  assert.is(r.code, 1, r.output);
  assert.match(r.output, new RegExp(`Total: +${NEEDING + 3}\\b`));
  assert.match(r.output, /Passed: +3\b/);
  assert.match(r.output, `${NESTED} [rmcp cannot run here: ${UNAVAILABLE_ENV} names it]`);
});

test("rmcp unavailable, through npm test's runner: skipped, counted and listed by name; under CI=true the file fails", () => {
  const plain = withoutRmcp(false, "npm test");
  assert.is(plain.code, 0, plain.output);
  assert.match(plain.output, new RegExp(`── skipped \\(${NEEDING}\\):\\n  rmcp-peer\\.test\\.ts: `));
  assert.match(plain.output, `  rmcp-peer.test.ts: ${NESTED} [skipped: rmcp cannot run here: ${UNAVAILABLE_ENV} names it]\n`);
  assert.match(plain.output, new RegExp(`Skipped: +${NEEDING}\\n`));
  const ci = withoutRmcp(true, "npm test");
  assert.is(ci.code, 1, ci.output);
  assert.match(ci.output, "── failed: rmcp-peer.test.ts ──");
  assert.match(ci.output, `rmcp cannot run here: ${UNAVAILABLE_ENV} names it (CI=true`);
});

test.run();
