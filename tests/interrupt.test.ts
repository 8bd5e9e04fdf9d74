// Ctrl-C in the middle of a long stdio run: SIGINT to the CLI's process group once its first
// sessions are on disk. Every finished session is kept (counted here: each in the report, each
// with its SVG), the index is written, one line says so, and the exit is 130. SIGTERM: 143.
import { alive, childrenSoFar } from "./support/child-pids.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./support/cli.js";

const BOUND_MS = 90_000;

async function interrupt(signal: "SIGINT" | "SIGTERM", group: boolean) {
  const out = mkdtempSync(join(tmpdir(), "lab-interrupt-"));
  const args = ["--import", "tsx", "lab/run.ts", "nested", "--loop", "sdk", "--transport", "stdio", "--repeat", "40", "--out", out];
  // detached: a process group of its own, as a shell gives a job (Ctrl-C signals the whole group)
  const child = spawn(process.execPath, args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  child.stdout.resume();
  const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  const report = () => join(out, "latest", "nested.sdk.json");
  const started = Date.now();
  // the signal comes once two sessions are on disk: order, not a time
  while (!(existsSync(report()) && JSON.parse(readFileSync(report(), "utf8")).runs.length >= 2)) {
    assert.ok(Date.now() - started < BOUND_MS, "no session finished within the bound");
    await new Promise((r) => setTimeout(r, 100));
  }
  process.kill(group ? -child.pid! : child.pid!, signal);
  const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 30_000);
  const code = await exited;
  clearTimeout(timer);
  // the lab killed its children by their handles as it left; the kernel reaps them soon after
  for (const until = Date.now() + 10_000; childrenSoFar().some(alive) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
  assert.equal(childrenSoFar().filter(alive), [], "the lab's children are gone");
  try {
    const dir = realpathSync(join(out, "latest"));
    const kept = JSON.parse(readFileSync(join(dir, "nested.sdk.json"), "utf8")) as { runs: { repeat: number }[] };
    const svgs = readdirSync(dir).filter((f) => f.endsWith(".svg"));
    return { code, stderr, dir, runs: kept.runs.length, svgs, index: existsSync(join(dir, "index.html")) ? readFileSync(join(dir, "index.html"), "utf8") : "", store: existsSync(join(out, "index.html")) ? readFileSync(join(out, "index.html"), "utf8") : "" };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

test("SIGINT to the process group mid-run: finished sessions kept, index written, one interrupted line, exit 130", async () => {
  const r = await interrupt("SIGINT", true);
  assert.is(r.code, 130, r.stderr);
  assert.ok(r.runs >= 2 && r.runs < 40, `${r.runs} sessions kept`);
  assert.is(r.svgs.length, r.runs, "each kept session has its SVG");
  assert.match(r.stderr.trimEnd().split("\n").pop()!, new RegExp(`^interrupted after 0 of 1 cases; evidence in ${r.dir}$`));
  assert.is(r.index.match(/data-scenario="nested"/g)?.length ?? 0, r.runs, "the index lists every kept session");
  assert.match(r.store, "INTERRUPTED");
  assert.not.match(r.stderr, /^\s+at /m);
});

test("SIGTERM to the lab alone: the same, exit 143", async () => {
  const r = await interrupt("SIGTERM", false);
  assert.is(r.code, 143, r.stderr);
  assert.ok(r.runs >= 2, `${r.runs} sessions kept`);
  assert.match(r.stderr, /interrupted after 0 of 1 cases; evidence in /);
});

test.run();
