// Files the lab hands to its children (a stdio child writes its own events to the file it is
// named) live in SCRATCH_DIR, named after the lab process that made them. Each is removed when
// it has been read; those still pending when the lab exits are removed then (on SIGINT and
// SIGTERM too: lab/run.ts leaves through process.exit); and a lab that was killed outright
// (SIGKILL, the machine's OOM killer), or whose child wrote after it died, leaves files that
// the next lab to start a child sweeps: any whose maker is no longer alive.
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SCRATCH_DIR } from "./paths.js";

export { SCRATCH_DIR };

const PREFIX = "child-events-";
const pending = new Set<string>();
let count = 0;
let swept = false;

process.once("exit", () => {
  for (const file of pending) rmSync(file, { force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0 only asks whether the pid exists
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** Removes every scratch file whose maker (the pid in its name) is gone; returns their paths. */
export function sweepStaleScratch(dir = SCRATCH_DIR): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(/^child-events-(\d+)-/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
    rmSync(join(dir, name), { force: true });
    removed.push(join(dir, name));
  }
  return removed;
}

/** A fresh path for one child's record of its own events, owned by this process until released. */
export function childEventsFile(suffix = "json"): string {
  mkdirSync(SCRATCH_DIR, { recursive: true });
  if (!swept) {
    swept = true;
    sweepStaleScratch();
  }
  const file = join(SCRATCH_DIR, `${PREFIX}${process.pid}-${++count}.${suffix}`);
  pending.add(file);
  return file;
}

/** The file has been read (or never will be): remove it now. */
export function releaseScratch(file: string): void {
  rmSync(file, { force: true });
  pending.delete(file);
}
