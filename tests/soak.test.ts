// The soak command and the load it starts: workers that keep a core busy, stop by themselves
// when their lease or bound runs out, and are stopped by their handles; a short soak counts
// every check and ends with "N passed, N failed".
import { test } from "uvu";
import { SCENARIOS } from "../scenarios/index.js";
import * as assert from "uvu/assert";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withBound } from "../lab/plan/bounds.js";
import { startLoad } from "../lab/soak/load.js";
import { runMain } from "./support/cli.js";

const BOUND_MS = 20_000;

test("load workers start their busy loops and are stopped by their handles", async () => {
  const load = startLoad(2, { boundMs: 60_000 });
  // each worker says "busy" from inside its loop, which never yields until its lease, its bound
  // or terminate() ends it
  await load.started();
  assert.is(new Set(load.threadIds).size, 2);
  const report = await load.stop();
  assert.equal(report, { workers: 2, stoppedByThemselves: 0, stuck: 0 });
  await withBound(load.exited(), BOUND_MS, "the workers to exit");
});

test("a worker whose lease is not renewed stops by itself, and so does one past its bound", async () => {
  const unrenewed = startLoad(1, { boundMs: 60_000, leaseMs: 300, renew: false });
  const bounded = startLoad(1, { boundMs: 300 });
  await withBound(Promise.all([unrenewed.exited(), bounded.exited()]), BOUND_MS, "workers to stop by themselves");
  assert.equal(await unrenewed.stop(), { workers: 1, stoppedByThemselves: 1, stuck: 0 });
  assert.equal(await bounded.stop(), { workers: 1, stoppedByThemselves: 1, stuck: 0 });
});

test("soak: one pass under load, every check counted, the load stopped, the last line N passed, N failed", async () => {
  const out = mkdtempSync(join(tmpdir(), "lab-soak-"));
  try {
    // two scenarios, not the whole matrix: the busy worker would take a core from the other tests
    // for as long as the matrix ran (every scenario is a test of its own elsewhere)
    const r = await runMain(["soak", "--runs=1", "--transport", "memory", "--loop", "sdk", "--load", "1", "--scenario", "nested,prefetch", "--out", out]);
    assert.is(r.code, 0, r.stdout + r.stderr);
    const lines = r.stdout.split("\n");
    const n = 2;
    assert.match(lines[0]!, `soak: 1 pass over ${n} cases x memory = ${n} sessions each; load: 1 busy worker thread started by the lab`);
    assert.ok(lines.includes("load: 1 worker thread(s) stopped by their handles"), r.stdout);
    assert.match(r.stdout, /per check: every one of \d+ checks held every time/);
    assert.is(lines.at(-1), `${n} passed, 0 failed`);
    // nothing failed; a session repeated because the server was slow keeps its case's evidence
    const repeated = /^(\d+) sessions? repeated because the server was slow \(/m.exec(r.stdout);
    assert.ok(repeated, r.stdout);
    assert.is(readdirSync(out).length, Number(repeated[1]) === 0 ? 0 : 1, "no evidence kept but a repeated session's");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("soak --scenario with a name that is no scenario: one line naming it, exit 2, nothing run", async () => {
  const r = await runMain(["soak", "--runs=1", "--scenario", "nested,nope"]);
  assert.is(r.code, 2);
  assert.is(r.stdout, "");
  assert.is(r.stderr, `error: soak --scenario: no scenario named nope (see \`list\`)`);
  assert.ok(SCENARIOS.some((s) => s.name === "nested"));
});

test.run();
