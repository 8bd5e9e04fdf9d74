// Builds under a lock (lab/peers/build-lock.ts, build-run.ts), on a tiny real build that the test
// holds half-way (tests/fixtures/tiny-build.ts): two processes that need it at once build it once,
// the second waiting and then finding it built; a build killed half-way leaves no stamp, its lock's
// dead owner is taken over, and the next call builds again. Also the parallel scheduler's rule.
import "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { lockFile } from "../lab/peers/build-lock.js";
import { ensureBuilt, runBuilds } from "../lab/peers/build-run.js";
import { cached, type PeerBuild } from "../lab/peers/builds.js";
import { buildStaleness, stampFile } from "../lab/peers/cached-build.js";
import { ROOT } from "./support/cli.js";
import { tinyBuild } from "./fixtures/tiny-build.js";

const FIXTURE = join(ROOT, "tests", "fixtures", "tiny-build.ts");
const BOUND_MS = 30_000;

/** Polls `ready` until it holds, within BOUND_MS (what it waits for is another process's state). */
async function until(what: string, ready: () => boolean): Promise<void> {
  const deadline = Date.now() + BOUND_MS;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`no ${what} within ${BOUND_MS} ms`);
    await delay(20);
  }
}

function start(name: string, dir: string, detached = false): { child: ChildProcess; out: () => string; closed: Promise<number | null> } {
  const child = spawn(process.execPath, ["--import", "tsx", FIXTURE, name, dir], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], detached });
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  const closed = new Promise<number | null>((resolve) => child.once("close", resolve));
  return { child, out: () => out, closed };
}

function scratch(): { name: string; dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "lab-tiny-build-"));
  const name = `test-tiny-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  return { name, dir, done: () => [dir, stampFile(name), lockFile(name)].forEach((p) => rmSync(p, { recursive: true, force: true })) };
}

const runs = (dir: string) => (existsSync(join(dir, "runs")) ? readFileSync(join(dir, "runs"), "utf8").length : 0);

test("two processes that need the same build at once build it once", async () => {
  const { name, dir, done } = scratch();
  try {
    const a = start(name, dir);
    await until("first build's step", () => runs(dir) === 1);
    const b = start(name, dir);
    await until("second process waiting on the lock", () => b.out().includes("is building it; waiting"));
    writeFileSync(join(dir, "release"), "");
    assert.equal(await Promise.all([a.closed, b.closed]), [0, 0], a.out() + b.out());
    assert.is(runs(dir), 1, "the step ran once");
    assert.match(a.out(), new RegExp(`^building ${name} \\(first use, about \\d+ s\\)\\.\\.\\.$`, "m"));
    assert.match(a.out(), new RegExp(`^built ${name} in [\\d.]+ s with v\\d+`, "m"));
    assert.match(b.out(), new RegExp(`^build ${name}: built meanwhile by another process`, "m"));
    assert.is(buildStaleness(tinyBuild(name, dir)), undefined);
    assert.not.ok(existsSync(lockFile(name)), "the lock is released");
  } finally {
    done();
  }
});

test("a build killed half-way leaves no stamp; the next call takes over its lock and builds again", async () => {
  const { name, dir, done } = scratch();
  try {
    const a = start(name, dir, true);
    await until("the build's step", () => runs(dir) === 1);
    process.kill(-a.child.pid!, "SIGKILL"); // its group: the process and its step
    await a.closed;
    assert.ok(existsSync(lockFile(name)), "the dead build's lock is still there");
    assert.not.ok(existsSync(stampFile(name)), "nothing looks built");
    assert.match(buildStaleness(tinyBuild(name, dir)) ?? "", /is not built/);
    writeFileSync(join(dir, "release"), "");
    const lines: string[] = [];
    assert.ok(await ensureBuilt(cached(tinyBuild(name, dir)), (line) => lines.push(line)), lines.join("\n"));
    assert.is(runs(dir), 2, "built again");
    assert.is(buildStaleness(tinyBuild(name, dir)), undefined);
    assert.ok(lines.some((l) => l.startsWith(`built ${name} in `)), lines.join("\n"));
  } finally {
    done();
  }
});

test("the scheduler never runs two builds of one kind at once, and runs a build after what it needs", async () => {
  const events: string[] = [];
  let running = 0;
  let peak = 0;
  const fake = (name: string, kind: PeerBuild["kind"], after: string[] = []): PeerBuild => ({
    name,
    kind,
    after,
    where: name,
    staleness: async () => (events.includes(`end ${name}`) ? undefined : "not built"),
    build: async () => {
      events.push(`start ${name}`);
      peak = Math.max(peak, ++running);
      await delay(5);
      running--;
      events.push(`end ${name}`);
      return { built: "" };
    },
  });
  const builds = [fake("c1", "cargo"), fake("c2", "cargo"), fake("v1", "venv"), fake("m1", "maven"), fake("d1", "java", ["m1"])];
  assert.ok(await runBuilds(builds, () => undefined, 3));
  const at = (e: string) => events.indexOf(e);
  assert.ok(at("start c2") > at("end c1") || at("start c1") > at("end c2"), events.join(", "));
  assert.ok(at("start d1") > at("end m1"), events.join(", "));
  assert.ok(peak >= 2 && peak <= 3, `peak ${peak}`);
});

test.run();
