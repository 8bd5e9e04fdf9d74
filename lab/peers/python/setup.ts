// Builds the Python peers' environments (lab/peers/python/envs.ts, the list): one venv per hash-pinned
// requirements file, holding exactly its pinned packages, all git-ignored. `npm ci` runs the set-up
// (prepare); it is quick when a venv is current (a stamp holds its requirements' hash). Without
// Python >= 3.10 it says so in one line and the rest of the lab still runs; `peers` then shows
// the Python peers unavailable.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { PROJECT_ROOT } from "../../paths.js";
import { PYTHON_ENVS, type PythonEnv } from "./envs.js";

export { PYTHON_ENVS, type PythonEnv } from "./envs.js";

const SETUP_BOUND_MS = 300_000;

const stampOf = (env: PythonEnv) => join(env.dir, "lab-requirements.sha256");
const requirementsHash = (env: PythonEnv) => createHash("sha256").update(readFileSync(env.requirements)).digest("hex");
const rel = (path: string) => relative(PROJECT_ROOT, path);

/** undefined when the venv is there and holds exactly the pinned packages; else why not, in one line. */
export function envProblem(env: PythonEnv): string | undefined {
  if (!existsSync(env.python)) return `no Python environment at ${env.dir} (${env.name}): run \`npm run setup\` on a machine with Python >= 3.10`;
  if (!existsSync(stampOf(env)) || readFileSync(stampOf(env), "utf8").trim() !== requirementsHash(env)) {
    return `${env.dir} does not match ${rel(env.requirements)}: run \`npm run setup\``;
  }
  return undefined;
}

/** What `peers` shows of a venv: each shown distribution's installed version (its dist-info, undefined
 *  when absent) and the real interpreter. */
export function envInfo(env: PythonEnv): { versions: Record<string, string | undefined>; interpreter: string | undefined } {
  const versions: Record<string, string | undefined> = Object.fromEntries(env.shows.map((name) => [name, undefined]));
  if (!existsSync(env.python)) return { versions, interpreter: undefined };
  const lib = join(env.dir, "lib");
  const site = readdirSync(lib).map((d) => join(lib, d, "site-packages")).find((d) => existsSync(d));
  const dists = site ? readdirSync(site) : [];
  for (const name of env.shows) {
    const dist = dists.find((d) => d.startsWith(`${name}-`) && /^[^-]+-[^-]+\.dist-info$/.test(d));
    versions[name] = dist?.slice(name.length + 1, -".dist-info".length);
  }
  return { versions, interpreter: realpathSync(env.python) };
}

/** A Python >= 3.10 to build the venv from: its real executable, not a shim. */
function basePython(): string | undefined {
  for (const candidate of [process.env.LAB_PYTHON, "python3", "python3.13", "python3.12", "python3.11", "python3.10"]) {
    if (!candidate) continue;
    const r = spawnSync(candidate, ["-c", "import sys; print(sys.executable if sys.version_info >= (3, 10) else '')"], { encoding: "utf8", timeout: 30_000 });
    const path = r.status === 0 ? r.stdout.trim() : "";
    if (path) return path;
  }
  return undefined;
}

function run(command: string, args: string[]): void {
  const env = { ...process.env, PIP_RETRIES: "0", PIP_DISABLE_PIP_VERSION_CHECK: "1", PIP_NO_INPUT: "1" };
  const r = spawnSync(command, args, { encoding: "utf8", timeout: SETUP_BOUND_MS, env });
  if (r.status !== 0) {
    const why = r.error ? r.error.message : `exit ${r.status ?? r.signal}`;
    throw new Error(`${[command, ...args].join(" ")} failed (${why}):\n${(r.stderr || r.stdout || "").slice(-3000)}`);
  }
}

/** Creates or refreshes one venv. Returns a one-line outcome; throws only on a failed install. */
export function setupPythonEnv(env: PythonEnv): string {
  if (envProblem(env) === undefined) return `${env.name}: ${rel(env.dir)} is current`;
  const python = basePython();
  if (!python) return `${env.name}: no Python >= 3.10 found (set LAB_PYTHON to one); its peers will show as unavailable`;
  rmSync(env.dir, { recursive: true, force: true });
  mkdirSync(dirname(env.dir), { recursive: true });
  run(python, ["-m", "venv", env.dir]);
  run(env.python, ["-m", "pip", "install", "--retries", "0", "--require-hashes", "--no-deps", "-r", env.requirements]);
  writeFileSync(stampOf(env), `${requirementsHash(env)}\n`);
  return `${env.name}: installed ${rel(env.requirements)} into ${rel(env.dir)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const env of PYTHON_ENVS) {
    try {
      console.log(setupPythonEnv(env));
    } catch (error) {
      // Not fatal: the TypeScript lab still runs, these Python peers show as unavailable, and
      // npm test (so .ci/run) fails without them (also `peers --strict`).
      console.error(`${env.name}: set-up failed, its peers will show as unavailable: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
