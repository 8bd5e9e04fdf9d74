// Build on first use: a command that is about to run a session with a peer whose build is missing
// or stale builds it first. The one place is the peer's own check (`unavailable()`, through
// buildProblem and envProblem): every command asks it before a session, `peers` only reports. The
// build runs in a child (lab/peers/build-run.ts, under the build's lock: two commands that need it
// at once build it once), its lines on stderr, at most once per build per process.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { LAB_DIR, PROJECT_ROOT } from "../paths.js";

let enabled = false;
const tried = new Set<string>();
/** bound for a first-use build: the lock's wait and the longest build */
const FIRST_USE_BOUND_MS = 40 * 60_000;
export const BUILD_RUN = join(LAB_DIR, "peers", "build-run.ts");

/** Turned on by the CLI for commands that run sessions (lab/run.ts); off in tests and in the set-up itself. */
export function buildOnFirstUse(on = true): void {
  enabled = on;
}

/** `problem()`, after building `name` once in a child when it is not current and first use is on. */
export function afterFirstUse(name: string, problem: () => string | undefined): string | undefined {
  const why = problem();
  if (why === undefined || !enabled || tried.has(name)) return why;
  tried.add(name);
  // stdout stays the command's own (a --json report): the build's lines go to stderr
  spawnSync(process.execPath, ["--import", "tsx", BUILD_RUN, "--first-use", name], { cwd: PROJECT_ROOT, stdio: ["ignore", 2, 2], timeout: FIRST_USE_BOUND_MS });
  return problem();
}
