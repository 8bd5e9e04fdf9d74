// One build at a time per build name, across processes: two commands that need rmcp at once build
// it once. The lock is a file in build/locks/ created atomically (open with O_EXCL) holding the
// owner's pid. A waiter polls it within a bound; a lock whose pid is dead (a build killed half-way)
// is taken over. Whoever gets the lock re-checks whether the build is still needed.
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { BUILD_DIR } from "../paths.js";

export const LOCKS_DIR = join(BUILD_DIR, "locks");
export const lockFile = (name: string) => join(LOCKS_DIR, `${name}.lock`);
/** the longest build (a first Maven or cargo build) and then some */
export const LOCK_WAIT_BOUND_MS = 20 * 60_000;
const POLL_MS = 200;

/** true when a process with this pid exists (EPERM: it exists, owned by someone else) */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The lock's owner, or undefined when the file is gone or torn (an owner killed between open and write). */
function owner(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the lock once if it is free; true when this process now holds it. */
function tryTake(file: string): boolean {
  try {
    const fd = openSync(file, "wx");
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return false;
  }
}

/** Removes a lock whose owner is dead. Renamed aside first, so that of two waiters only one removes it. */
function breakIfStale(file: string, torn: { since?: number }): void {
  const pid = owner(file);
  if (pid === undefined) {
    // an empty lock: its owner may be between open and write; stale only if it stays empty
    torn.since ??= Date.now();
    if (Date.now() - torn.since < 2_000) return;
  } else if (alive(pid)) return;
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
    rmSync(aside, { force: true });
  } catch {
    // another waiter broke it first
  }
}

/**
 * Runs `work` holding the lock for `name`. `onWait` is called once if another process holds it.
 * Rejects after `boundMs` of waiting, naming the owner.
 */
export async function withBuildLock<T>(name: string, work: () => Promise<T>, onWait?: (pid: number | undefined) => void, boundMs = LOCK_WAIT_BOUND_MS): Promise<T> {
  mkdirSync(LOCKS_DIR, { recursive: true });
  const file = lockFile(name);
  const deadline = Date.now() + boundMs;
  const torn: { since?: number } = {};
  let told = false;
  while (!tryTake(file)) {
    if (!told) onWait?.(owner(file));
    told = true;
    breakIfStale(file, torn);
    if (Date.now() > deadline) throw new Error(`build ${name}: waited ${Math.round(boundMs / 1000)} s for ${file} (pid ${owner(file) ?? "?"})`);
    await delay(POLL_MS);
  }
  try {
    return await work();
  } finally {
    // only our own lock: never one a waiter took over after deciding we were dead
    if (owner(file) === process.pid) rmSync(file, { force: true });
  }
}
