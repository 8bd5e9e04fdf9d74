// One of npm test's processes (tests/support/parallel.ts): it asks for test files, runs each as
// uvu's own CLI would (uvu/run: the file queued under its name, imported, then uvu's exec), and
// reports what uvu printed for it; it asks again until there is nothing left. Files that share
// runs come together and run in this one process, so their runs are made once (shared-runs.ts).
// Each file is its own exec, so the runner hears of each as it ends and deals the next to whichever
// process is free first.
import "./child-pids.js"; // before any file's tests start a child
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../lab/paths.js";

/** parent -> worker: files to run, in order, or the end */
export type Deal = { files: string[] } | { end: true };
/** worker -> parent: ready for files; or one file's end, with what uvu printed for it */
export type Report = { ready: true } | { file: string; output: string; failed: boolean };

declare global {
  // uvu's queue and index, as uvu/run sets them (node_modules/uvu/run/index.mjs)
  var UVU_DEFER: number;
  var UVU_INDEX: number;
  var UVU_QUEUE: unknown[][];
}

globalThis.UVU_DEFER = 1;
const uvu = await import("uvu");
let failed = false;
const send = (report: Report) => process.send!(report);

async function runFile(file: string): Promise<void> {
  globalThis.UVU_QUEUE.length = 0;
  globalThis.UVU_INDEX = 0;
  globalThis.UVU_QUEUE.push([file]);
  let output = "";
  const write = process.stdout.write.bind(process.stdout);
  // uvu writes through process.stdout.write when it writes (dist/index.mjs:25): what this file's
  // tests and uvu print is its output
  process.stdout.write = ((chunk: string | Uint8Array) => ((output += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")), true)) as typeof process.stdout.write;
  process.exitCode = 0;
  try {
    await import(pathToFileURL(join(PROJECT_ROOT, "tests", file)).href);
    await uvu.exec(false);
  } catch (error) {
    output += `\n  FAIL  ${file} could not run: ${(error as Error).stack ?? String(error)}\n`;
    process.exitCode = 1;
  } finally {
    process.stdout.write = write;
  }
  const bad = process.exitCode !== 0;
  failed ||= bad;
  send({ file, output, failed: bad });
}

let ending = false;
// the runner gone (killed, say): nobody to report to; leaving through exit stops this process's children
process.once("disconnect", () => ending || process.exit(1));
process.on("message", (deal: Deal) => {
  if ("end" in deal) {
    ending = true;
    process.exitCode = failed ? 1 : 0;
    // the IPC channel closed, this process ends when its work has (child-pids.ts checks then)
    return void process.disconnect();
  }
  void (async () => {
    for (const file of deal.files) await runFile(file);
    send({ ready: true });
  })();
});
send({ ready: true });
