// The Python peers' environments: one venv per hash-pinned requirements file, each holding exactly
// its pinned packages: .venv for mcp 2.3.0 (lab/peers/py/requirements.txt), .venv-py1 for
// mcp 1.29.0 (lab/peers/py1/requirements.txt) and .venv-fastmcp for FastMCP 4.0.10 on mcp 2.3.0
// (lab/peers/fastmcp/requirements.txt), all git-ignored. `npm ci` runs the set-up
// (prepare); it is quick when a venv is current (a stamp holds its requirements' hash). Without
// Python >= 3.10 it says so in one line and the rest of the lab still runs; `peers` then shows
// the Python peers unavailable.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { FASTMCP_VENV_DIR, LAB_DIR, PROJECT_ROOT, PY1_VENV_DIR, PY_VENV_DIR } from "../../paths.js";

/** A venv built from one requirements file. */
export interface PythonEnv {
  /** what it is for, in the set-up's one line */
  label: string;
  requirements: string;
  dir: string;
  /** the venv's own interpreter: spawn this, never `python3` from PATH (it may be a shim) */
  python: string;
  /** the distributions `peers` shows the installed version of, the env's own first */
  shows: readonly string[];
}

function pythonEnv(label: string, requirements: string, dir: string, shows: readonly string[] = ["mcp"]): PythonEnv {
  return { label, requirements, dir, python: join(dir, "bin", "python"), shows };
}

export const PY_ENV = pythonEnv("mcp 2.3.0", join(LAB_DIR, "peers", "py", "requirements.txt"), PY_VENV_DIR);
export const PY1_ENV = pythonEnv("mcp 1.29.0", join(LAB_DIR, "peers", "py1", "requirements.txt"), PY1_VENV_DIR);
export const FASTMCP_ENV = pythonEnv("fastmcp 4.0.10", join(LAB_DIR, "peers", "fastmcp", "requirements.txt"), FASTMCP_VENV_DIR, ["fastmcp", "mcp"]);
export const PYTHON_ENVS = [PY_ENV, PY1_ENV, FASTMCP_ENV];

export const REQUIREMENTS = PY_ENV.requirements;
export const VENV_PYTHON = PY_ENV.python;
const SETUP_BOUND_MS = 300_000;

const stampOf = (env: PythonEnv) => join(env.dir, "lab-requirements.sha256");
const requirementsHash = (env: PythonEnv) => createHash("sha256").update(readFileSync(env.requirements)).digest("hex");
const rel = (path: string) => relative(PROJECT_ROOT, path);

/** undefined when the venv is there and holds exactly the pinned packages; else why not, in one line. */
export function envProblem(env: PythonEnv): string | undefined {
  if (!existsSync(env.python)) return `no Python environment at ${env.dir} (${env.label}): run \`npm run setup\` on a machine with Python >= 3.10`;
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

export const venvProblem = (): string | undefined => envProblem(PY_ENV);

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
  if (envProblem(env) === undefined) return `${env.label}: ${rel(env.dir)} is current`;
  const python = basePython();
  if (!python) return `${env.label}: no Python >= 3.10 found (set LAB_PYTHON to one); its peers will show as unavailable`;
  rmSync(env.dir, { recursive: true, force: true });
  run(python, ["-m", "venv", env.dir]);
  run(env.python, ["-m", "pip", "install", "--retries", "0", "--require-hashes", "--no-deps", "-r", env.requirements]);
  writeFileSync(stampOf(env), `${requirementsHash(env)}\n`);
  return `${env.label}: installed ${rel(env.requirements)} into ${rel(env.dir)}`;
}

/** the 2.3.0 venv (kept for callers of the one-venv API) */
export const setupPython = (): string => setupPythonEnv(PY_ENV);

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const env of PYTHON_ENVS) {
    try {
      console.log(setupPythonEnv(env));
    } catch (error) {
      // Not fatal: the TypeScript lab still runs, these Python peers show as unavailable, and
      // npm test (so .ci/run) fails without them (also `peers --strict`).
      console.error(`${env.label}: set-up failed, its peers will show as unavailable: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
