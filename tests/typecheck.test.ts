// The whole project type-checks under strict settings. tsc runs in its own process from the
// moment this file is loaded (uvu loads every test file before it runs the first test), so it
// works beside the other tests instead of after them; the test waits for its verdict, within a
// bound, and stops it by its handle if the bound passes.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { withBound } from "../lab/plan/bounds.js";
import { ROOT } from "./support/cli.js";

const TSC_BOUND_MS = 180_000;
const tscPath = createRequire(import.meta.url).resolve("typescript/bin/tsc");
// Incremental: tsc keeps what it learned in build/ (git-ignored) and re-checks only what changed
// and what depends on it; the verdict, errors included, is the same as a full check's.
const TSC_ARGS = ["--noEmit", "--incremental", "--tsBuildInfoFile", "build/tsc.tsbuildinfo", "-p", "tsconfig.json"];
const tsc = spawn(process.execPath, [tscPath, ...TSC_ARGS], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
let output = "";
tsc.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
tsc.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
const finished = new Promise<number | null>((resolve, reject) => {
  tsc.once("error", reject);
  tsc.once("close", (code) => resolve(code));
});
finished.catch(() => {}); // awaited by the test; no unhandled rejection before it runs

test("tsc --noEmit is clean", async () => {
  try {
    const code = await withBound(finished, TSC_BOUND_MS, "tsc --noEmit");
    assert.is(code, 0, output);
  } finally {
    if (tsc.exitCode === null && tsc.signalCode === null) tsc.kill("SIGKILL");
  }
});

test.run();
