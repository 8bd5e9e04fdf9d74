// One of npm test's uvu processes (tests/support/parallel.ts deals the files): it reads test file
// names on stdin, one per line, and runs each as uvu's own runner does (uvu/run: the file imported
// with UVU_DEFER set, then uvu's exec), then writes DONE_MARK and the file's name on a line of its
// own. It ends when its stdin does.
import { createInterface } from "node:readline";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PROJECT_ROOT } from "../../lab/paths.js";

export const DONE_MARK = "\u0000lab-test-file-done ";

declare global {
  var UVU_DEFER: number | undefined;
  var UVU_QUEUE: unknown[][];
  var UVU_INDEX: number | undefined;
}

if (process.argv[1]?.endsWith("worker.ts")) {
  globalThis.UVU_DEFER = 1;
  globalThis.UVU_QUEUE = [];
  const uvu = await import("uvu");
  for await (const line of createInterface({ input: process.stdin })) {
    const file = line.trim();
    if (!file) continue;
    globalThis.UVU_QUEUE = [[file]];
    globalThis.UVU_INDEX = 0;
    try {
      await import(pathToFileURL(join(PROJECT_ROOT, "tests", file)).href);
      await uvu.exec(false);
    } catch (error) {
      // a file that cannot even load is one failed test, named
      process.stdout.write(`${file}\n\n   FAIL  ${file} did not load: ${String(error)}\n\n  Total:     1\n  Passed:    0\n  Skipped:   0\n`);
    }
    process.stdout.write(`\n${DONE_MARK}${file}\n`);
  }
}
