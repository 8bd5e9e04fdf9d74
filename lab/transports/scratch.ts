// Files a child writes for the lab (its own events) live in build/scratch/, named with the lab
// process's pid. A lab that was killed cannot remove its own; the next lab process removes every
// scratch file whose owner is no longer alive.
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BUILD_DIR } from "../paths.js";

export const SCRATCH_DIR = join(BUILD_DIR, "scratch");
let count = 0;
let swept = false;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes scratch files left by lab processes that are gone. */
export function sweepScratch(): void {
  swept = true;
  let names: string[];
  try {
    names = readdirSync(SCRATCH_DIR);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.split("-")[0]);
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) rmSync(join(SCRATCH_DIR, name), { force: true });
  }
}

/** A fresh path for one child's events file; the caller removes it after reading. */
export function childEventsFile(suffix = "json"): string {
  if (!swept) sweepScratch();
  mkdirSync(SCRATCH_DIR, { recursive: true });
  return join(SCRATCH_DIR, `${process.pid}-${++count}.${suffix}`);
}
