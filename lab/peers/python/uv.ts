// uv (a PyPI wheel, pinned with its hash in uv-requirements.txt) in a small venv of its own under
// build/uv/, installed by pip --require-hashes: the set-up makes the Python peers' venvs with it
// (`bench` measures it against pip). Built once, under its own lock; without it the set-up uses
// pip and says so in one line.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BUILD_DIR, LAB_DIR } from "../../paths.js";
import { withBuildLock } from "../build-lock.js";
import { runCommand, writeStamp } from "../cached-build.js";

export const UV_DIR = join(BUILD_DIR, "uv");
export const UV_BINARY = join(UV_DIR, "bin", "uv");
const REQUIREMENTS = join(LAB_DIR, "peers", "python", "uv-requirements.txt");
const STAMP = join(UV_DIR, "lab-requirements.sha256");
/** pip and uv never ask, never retry a dead index for minutes, never check for a newer self */
export const QUIET_PIP = { PIP_RETRIES: "0", PIP_DISABLE_PIP_VERSION_CHECK: "1", PIP_NO_INPUT: "1" };
/** uv: never download a Python of its own, no progress bars in the set-up's lines */
export const QUIET_UV = { UV_PYTHON_DOWNLOADS: "never", UV_NO_PROGRESS: "1" };
const BOUND_MS = 300_000;

/** a requirements file's hash: what a venv's stamp holds */
export const fileHash = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const current = () => existsSync(UV_BINARY) && existsSync(STAMP) && readFileSync(STAMP, "utf8").trim() === fileHash(REQUIREMENTS);

let once: Promise<string> | undefined;
/** uv's path, installed first if needed (with `python`, a Python >= 3.10); rejects with why not. */
export function ensureUv(python: string): Promise<string> {
  return (once ??= withBuildLock("uv", async () => {
    if (current()) return UV_BINARY;
    rmSync(UV_DIR, { recursive: true, force: true });
    await runCommand("uv", python, ["-m", "venv", UV_DIR], { boundMs: BOUND_MS });
    await runCommand("uv", join(UV_DIR, "bin", "python"), ["-m", "pip", "install", "--quiet", "--retries", "0", "--require-hashes", "--no-deps", "-r", REQUIREMENTS], { env: QUIET_PIP, boundMs: BOUND_MS });
    writeStamp(STAMP, fileHash(REQUIREMENTS));
    return UV_BINARY;
  }));
}

/** A venv at `dir` holding exactly `requirements`'s hash-pinned packages, made by uv or by pip
 *  (`vars`: more of the tools' environment, e.g. a cache of their own for `bench`; `hashes` false: a
 *  user's stack whose resolution gave no hash for some file, `stack` says so). */
export async function makeVenv(tool: "uv" | "pip", python: string, dir: string, requirements: string, uv = UV_BINARY, vars: Record<string, string> = {}, hashes = true): Promise<void> {
  const venvPython = join(dir, "bin", "python");
  const require = hashes ? ["--require-hashes"] : [];
  if (tool === "uv") {
    await runCommand("uv venv", uv, ["venv", "--quiet", "--python", python, dir], { env: { ...QUIET_UV, ...vars }, boundMs: BOUND_MS });
    // --compile-bytecode: as pip does by default. The programs run with -B (no .pyc written), so a venv without them
    // compiles every module on each start: semantic-kernel's warm host then took over SPAWN_BOUND_MS on a loaded machine.
    await runCommand("uv pip", uv, ["pip", "install", "--quiet", "--compile-bytecode", ...require, "--no-deps", "-r", requirements, "--python", venvPython], { env: { ...QUIET_UV, ...vars }, boundMs: BOUND_MS });
    return;
  }
  await runCommand("venv", python, ["-m", "venv", dir], { boundMs: BOUND_MS });
  await runCommand("pip", venvPython, ["-m", "pip", "install", "--quiet", "--retries", "0", ...require, "--no-deps", "-r", requirements], { env: { ...QUIET_PIP, ...vars }, boundMs: BOUND_MS });
}
