// Runs builds of lab/peers/builds.ts: each under its lock (build-lock.ts), with one line when it
// starts ("building rmcp (first use, about 60 s)...": the estimate is its last recorded time in
// build/, else a rough figure for its kind), a line per step and one every HEARTBEAT_MS (later every
// minute) while it lasts, and one when it ends (its time, where it went). Several at once where they do not compete
// (one per kind, venvs aside), at most one per core. The set-up (lab/setup.ts) and first use
// (first-use.ts, which runs this file as a child: --first-use NAME) both come here.
import { mkdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { BUILD_DIR } from "../paths.js";
import { withBuildLock } from "./build-lock.js";
import { writeStamp } from "./cached-build.js";
import { ALL_BUILDS, findBuild, ROUGH_SECONDS, type PeerBuild } from "./builds.js";

const TIMES = join(BUILD_DIR, "build-times.json");
const HEARTBEAT_MS = 15_000;

function recorded(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(TIMES, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}

/** About how long `build` takes: its last time here, else its kind's rough figure. */
export const estimateSeconds = (build: PeerBuild, times = recorded()): number => Math.max(1, Math.round(times[build.name] ?? ROUGH_SECONDS[build.kind]));

/** only the lab's own builds are recorded (a test's tiny one is not) */
function record(name: string, seconds: number): void {
  if (!findBuild(name)) return;
  mkdirSync(BUILD_DIR, { recursive: true });
  writeStamp(TIMES, JSON.stringify({ ...recorded(), [name]: Math.round(seconds * 10) / 10 }, null, 1));
}

/** "first use" for a build that never was; else its inputs changed */
const reasonOf = (why: string) => (/not built|no Python environment|is missing/.test(why) ? "first use" : "inputs changed");

export type Log = (line: string) => void;

/** Builds `build` if it is not current; true unless it failed. Never throws. */
export async function ensureBuilt(build: PeerBuild, log: Log = console.log): Promise<boolean> {
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  try {
    if ((await build.staleness()) === undefined) {
      log(`build ${build.name}: cached, inputs unchanged (${seconds()} s)`);
      return true;
    }
    return await withBuildLock(
      build.name,
      async () => {
        // another process may have built it while this one waited
        const why = await build.staleness();
        if (why === undefined) {
          log(`build ${build.name}: built meanwhile by another process (${seconds()} s)`);
          return true;
        }
        log(`building ${build.name} (${reasonOf(why)}, about ${estimateSeconds(build)} s)...`);
        const building = performance.now();
        // every 15 s for the first minute, then every minute: a long cargo build stays a few lines
        let heartbeat: NodeJS.Timeout;
        const beat = () => {
          log(`  ${build.name}: still building (${seconds()} s)`);
          heartbeat = setTimeout(beat, performance.now() - building < 60_000 ? HEARTBEAT_MS : 4 * HEARTBEAT_MS);
        };
        heartbeat = setTimeout(beat, HEARTBEAT_MS);
        try {
          const outcome = await build.build((line) => log(`  ${build.name}: ${line}`));
          if ("skipped" in outcome) {
            log(`build ${build.name}: skipped, ${outcome.skipped}`);
            return true;
          }
          record(build.name, (performance.now() - building) / 1000);
          log(`built ${build.name} in ${seconds()} s ${outcome.built}: ${build.where}`);
          return true;
        } finally {
          clearTimeout(heartbeat);
        }
      },
      (pid) => log(`${build.name}: pid ${pid ?? "?"} is building it; waiting for it`),
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(message.startsWith("build ") ? message : `build ${build.name}: failed after ${seconds()} s: ${message}`);
    return false;
  }
}

/** `names` and every build they need first, in ALL_BUILDS's order. */
export function withPrerequisites(names: readonly string[]): PeerBuild[] {
  const wanted = new Set<string>();
  const add = (name: string) => {
    if (wanted.has(name)) return;
    wanted.add(name);
    for (const before of findBuild(name)?.after ?? []) add(before);
  };
  names.forEach(add);
  return ALL_BUILDS.filter((b) => wanted.has(b.name));
}

/** Runs `builds` (each after its prerequisites among them), several at once where they do not
 *  compete: one per kind (venvs up to the cores), at most one per core; the longest first (by its
 *  estimate), so that a cargo build does not start after the venvs. True when none failed. */
export async function runBuilds(builds: readonly PeerBuild[], log: Log = console.log, cores = availableParallelism()): Promise<boolean> {
  const times = recorded();
  const pending = [...builds].sort((a, b) => estimateSeconds(b, times) - estimateSeconds(a, times));
  const done = new Map<string, boolean>();
  const running = new Map<string, Promise<void>>();
  const busy = (kind: string) => [...running.keys()].filter((name) => builds.find((b) => b.name === name)?.kind === kind).length;
  while (pending.length > 0 || running.size > 0) {
    for (const build of [...pending]) {
      if (running.size >= cores) break;
      const before = build.after.filter((name) => builds.some((b) => b.name === name));
      if (before.some((name) => !done.has(name)) || busy(build.kind) >= (build.kind === "venv" ? cores : 1)) continue;
      pending.splice(pending.indexOf(build), 1);
      const failed = before.find((name) => done.get(name) === false);
      if (failed !== undefined) {
        log(`build ${build.name}: not started, ${failed} failed`);
        done.set(build.name, false);
        continue;
      }
      running.set(build.name, ensureBuilt(build, log).then((ok) => void done.set(build.name, ok)));
    }
    if (running.size === 0) break; // nothing startable: a prerequisite outside the set never comes
    await Promise.race(running.values());
    for (const name of done.keys()) running.delete(name);
  }
  return [...done.values()].every(Boolean) && done.size === builds.length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // --first-use NAME: what lab/peers/first-use.ts runs, its lines on the caller's stderr
  const name = process.argv[process.argv.indexOf("--first-use") + 1];
  const build = name === undefined ? undefined : findBuild(name);
  if (!process.argv.includes("--first-use") || build === undefined) {
    console.error(`usage: build-run.ts --first-use NAME (a build of lab/peers/builds.ts)`);
    process.exitCode = 2;
  } else process.exitCode = (await runBuilds(withPrerequisites([build.name]))) ? 0 : 1;
}
