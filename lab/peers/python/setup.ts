// Builds the Python peers' environments (lab/peers/python/envs.ts, the list): one venv per hash-pinned
// requirements file, holding exactly its pinned packages, all git-ignored; made by uv (uv.ts; pip when
// uv cannot be installed, or LAB_VENV_TOOL=pip). A venv is built at its final path (its scripts'
// shebangs hold that path) and its stamp, its requirements' hash, is written last: a venv without
// its stamp is not built. Without Python >= 3.10 it says so in one line and the rest of the lab
// still runs; `peers` then shows the Python peers unavailable.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { PROJECT_ROOT } from "../../paths.js";
import { writeStamp, type BuildOutcome } from "../cached-build.js";
import { afterFirstUse } from "../first-use.js";
import { PYTHON_ENVS, type PythonEnv } from "./envs.js";
import { ensureUv, fileHash, makeVenv } from "./uv.js";

export { PYTHON_ENVS, type PythonEnv } from "./envs.js";

const stampOf = (env: PythonEnv) => join(env.dir, "lab-requirements.sha256");
const rel = (path: string) => relative(PROJECT_ROOT, path);

/** undefined when the venv is there and holds exactly the pinned packages; else why not, in one line. Builds nothing. */
export function envStaleness(env: PythonEnv): string | undefined {
  if (!existsSync(env.python)) return `no Python environment at ${env.dir} (${env.name}): run \`npm run setup\` on a machine with Python >= 3.10`;
  if (!existsSync(stampOf(env)) || readFileSync(stampOf(env), "utf8").trim() !== fileHash(env.requirements)) {
    return `${env.dir} does not match ${rel(env.requirements)}: run \`npm run setup\``;
  }
  return undefined;
}

/** envStaleness, after building the venv when the command builds on first use (lab/peers/first-use.ts). */
export const envProblem = (env: PythonEnv): string | undefined => afterFirstUse(env.name, () => envStaleness(env));

/** What `peers` shows of a venv: each shown distribution's installed version (its dist-info, undefined
 *  when absent) and the real interpreter. */
export function envInfo(env: PythonEnv): { versions: Record<string, string | undefined>; interpreter: string | undefined } {
  const versions: Record<string, string | undefined> = Object.fromEntries(env.shows.map((name) => [name, undefined]));
  if (!existsSync(env.python)) return { versions, interpreter: undefined };
  const lib = join(env.dir, "lib");
  const site = readdirSync(lib).map((d) => join(lib, d, "site-packages")).find((d) => existsSync(d));
  const dists = site ? readdirSync(site) : [];
  for (const name of env.shows) {
    // a dist-info folder spells the name with "_" for "-" (google_adk-2.15.0.dist-info), case as the wheel has it
    const folder = `${name.replace(/-/g, "_").toLowerCase()}-`;
    const dist = dists.find((d) => d.toLowerCase().startsWith(folder) && /^[^-]+-[^-]+\.dist-info$/.test(d));
    versions[name] = dist?.slice(name.length + 1, -".dist-info".length);
  }
  return { versions, interpreter: realpathSync(env.python) };
}

/** A Python >= 3.10 to build the venv from: its real executable, not a shim. */
export function basePython(): string | undefined {
  for (const candidate of [process.env.LAB_PYTHON, "python3", "python3.13", "python3.12", "python3.11", "python3.10"]) {
    if (!candidate) continue;
    const r = spawnSync(candidate, ["-c", "import sys; print(sys.executable if sys.version_info >= (3, 10) else '')"], { encoding: "utf8", timeout: 30_000 });
    const path = r.status === 0 ? r.stdout.trim() : "";
    if (path) return path;
  }
  return undefined;
}

/** The installer the set-up uses: uv, measured faster than pip here (`bench`); LAB_VENV_TOOL=pip picks pip. */
export const venvTool = (): "uv" | "pip" => (process.env.LAB_VENV_TOOL === "pip" ? "pip" : "uv");

/** Creates or refreshes one venv (the caller has checked it is needed); throws only on a failed install. */
export async function buildPythonEnv(env: PythonEnv, progress: (line: string) => void = () => undefined): Promise<BuildOutcome> {
  const python = basePython();
  if (!python) return { skipped: `no Python >= 3.10 found (set LAB_PYTHON to one); its peers will show as unavailable` };
  let tool = venvTool();
  let uv: string | undefined;
  if (tool === "uv") {
    progress("step 1/2: uv (build/uv/, pinned with its hash)");
    uv = await ensureUv(python).catch((error: Error) => {
      progress(`uv could not be installed, pip instead: ${error.message.split("\n")[0]}`);
      return undefined;
    });
    if (uv === undefined) tool = "pip";
  }
  rmSync(env.dir, { recursive: true, force: true });
  mkdirSync(dirname(env.dir), { recursive: true });
  progress(`step 2/2: ${tool} installs ${rel(env.requirements)} (--require-hashes)`);
  await makeVenv(tool, python, env.dir, env.requirements, uv);
  writeStamp(stampOf(env), fileHash(env.requirements));
  return { built: `with ${tool}` };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const env of PYTHON_ENVS) {
    try {
      if (envStaleness(env) === undefined) console.log(`${env.name}: ${rel(env.dir)} is current`);
      else {
        const outcome = await buildPythonEnv(env);
        console.log(`${env.name}: ${"skipped" in outcome ? outcome.skipped : `installed ${rel(env.requirements)} into ${rel(env.dir)} ${outcome.built}`}`);
      }
    } catch (error) {
      // Not fatal: the TypeScript lab still runs, these Python peers show as unavailable, and
      // npm test (so .ci/run) fails without them (also `peers --strict`).
      console.error(`${env.name}: set-up failed, its peers will show as unavailable: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
