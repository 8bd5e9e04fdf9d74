// The whole project type-checks under strict settings. tsc runs in its own process from the
// moment this file is loaded (uvu loads every test file before it runs the first test), so it
// works beside the other tests instead of after them; the test waits for its verdict, within a
// bound, and stops it by its handle if the bound passes.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { withBound } from "../lab/plan/bounds.js";
import { BUILD_DIR } from "../lab/paths.js";
import { ROOT } from "./support/cli.js";

const TSC_BOUND_MS = 180_000;
const tscPath = createRequire(import.meta.url).resolve("typescript/bin/tsc");
// Build mode (tsc -b) over tsconfig.json with noEmit: when no source file is newer than its record
// in build/ and the last check found no error, tsc says "up to date" without parsing the 2,000
// declaration files (0.6 s, not 7 s of CPU); a record that holds errors is always checked again.
// tsc -b looks at the project's own files only, so the record is named by the lockfiles: new
// dependencies (npm ci) mean a full check.
const LOCKFILES = ["package-lock.json", "lab/peers/mastra/package-lock.json", "lab/peers/langchain/package-lock.json", "lab/peers/strands-ts/package-lock.json", "lab/peers/ai-sdk/package-lock.json", "lab/peers/openai-agents/package-lock.json"];
const locks = createHash("sha256");
for (const file of LOCKFILES) locks.update(readFileSync(join(ROOT, file)));
const dir = join(BUILD_DIR, "typecheck");
mkdirSync(dir, { recursive: true });
const config = join(dir, "tsconfig.json");
const record = `deps-${locks.digest("hex").slice(0, 16)}.tsbuildinfo`;
const text = `${JSON.stringify({ extends: "../../tsconfig.json", compilerOptions: { noEmit: true, incremental: true, tsBuildInfoFile: `./${record}` } })}\n`;
// written only when it changes: the config is one of tsc -b's inputs, its time one it compares
if ((existsSync(config) ? readFileSync(config, "utf8") : "") !== text) writeFileSync(config, text);
const tsc = spawn(process.execPath, [tscPath, "-b", config], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
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
