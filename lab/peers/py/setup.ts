// The Python peers' environment: a venv at .venv (git-ignored) with exactly the pinned, hashed
// packages of lab/peers/py/requirements.txt. `npm ci` runs this (prepare); it is quick when the
// venv is current (a stamp holds the requirements' hash). Without Python >= 3.10 it says so in
// one line and the rest of the lab still runs; `peers` then shows the Python peers unavailable.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LAB_DIR, PY_VENV_DIR } from "../../paths.js";

export const REQUIREMENTS = join(LAB_DIR, "peers", "py", "requirements.txt");
export const VENV_PYTHON = join(PY_VENV_DIR, "bin", "python");
const STAMP = join(PY_VENV_DIR, "lab-requirements.sha256");
const SETUP_BOUND_MS = 300_000;

const requirementsHash = () => createHash("sha256").update(readFileSync(REQUIREMENTS)).digest("hex");

/** undefined when the venv is there and holds exactly the pinned packages; else why not. */
export function venvProblem(): string | undefined {
  if (!existsSync(VENV_PYTHON)) return `no Python environment at ${PY_VENV_DIR}: run \`npm ci\` (or \`npm run setup:py\`) on a machine with Python >= 3.10`;
  if (!existsSync(STAMP) || readFileSync(STAMP, "utf8").trim() !== requirementsHash()) {
    return `${PY_VENV_DIR} does not match lab/peers/py/requirements.txt: run \`npm run setup:py\``;
  }
  return undefined;
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
  // pip tries its default index first, which is unreachable on these machines: no retries.
  const env = { ...process.env, PIP_RETRIES: "0", PIP_DISABLE_PIP_VERSION_CHECK: "1", PIP_NO_INPUT: "1" };
  const r = spawnSync(command, args, { encoding: "utf8", timeout: SETUP_BOUND_MS, env });
  if (r.status !== 0) {
    const why = r.error ? r.error.message : `exit ${r.status ?? r.signal}`;
    throw new Error(`${[command, ...args].join(" ")} failed (${why}):\n${(r.stderr || r.stdout || "").slice(-3000)}`);
  }
}

/** Creates or refreshes the venv. Returns a one-line outcome; throws only on a failed install. */
export function setupPython(): string {
  if (venvProblem() === undefined) return `Python peers: ${PY_VENV_DIR} is current`;
  const python = basePython();
  if (!python) return "Python peers: no Python >= 3.10 found (set LAB_PYTHON to one); they will show as unavailable";
  rmSync(PY_VENV_DIR, { recursive: true, force: true });
  run(python, ["-m", "venv", PY_VENV_DIR]);
  run(VENV_PYTHON, ["-m", "pip", "install", "--retries", "0", "--require-hashes", "--no-deps", "-r", REQUIREMENTS]);
  writeFileSync(STAMP, `${requirementsHash()}\n`);
  return `Python peers: installed lab/peers/py/requirements.txt into ${PY_VENV_DIR}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(setupPython());
  } catch (error) {
    // Not fatal to `npm ci`: the TypeScript lab still runs, the Python peers show as unavailable,
    // and npm test (so .ci/run) fails without them (tests/py-peers.test.ts; also `peers --strict`).
    console.error(`Python peers: set-up failed, they will show as unavailable: ${error instanceof Error ? error.message : String(error)}`);
  }
}
