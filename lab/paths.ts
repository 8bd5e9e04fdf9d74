// Every path the lab uses, computed in one place from the project root.
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const LAB_DIR = join(PROJECT_ROOT, "lab");
export const EXPECTED_DIR = join(PROJECT_ROOT, "expected");
export const CONTRACT_EXPECTED_DIR = join(EXPECTED_DIR, "contract");
export const RUN_OUTPUT_DIR = join(PROJECT_ROOT, "run-output");
export const BUILD_DIR = join(PROJECT_ROOT, "build");
export const NOTEBOOKS_DIR = join(PROJECT_ROOT, "notebooks");
/** the Python peers' virtual environment, made by the set-up (git-ignored) */
export const PY_VENV_DIR = join(PROJECT_ROOT, ".venv");
/** the Python SDK 1.29.0 peers' virtual environment (git-ignored) */
export const PY1_VENV_DIR = join(PROJECT_ROOT, ".venv-py1");
/** the FastMCP 4.2.3 client peer's virtual environment (git-ignored) */
export const FASTMCP_VENV_DIR = join(PROJECT_ROOT, ".venv-fastmcp");
/** every later Python peer's venv, one folder each, named as its env (lab/peers/python/envs.ts; git-ignored) */
export const PYTHON_VENVS_DIR = join(BUILD_DIR, "venvs");
/** files the lab hands to its children (a stdio child's own events), one folder per user */
export const SCRATCH_DIR = join(tmpdir(), `mcp-reentrancy-lab-${process.getuid?.() ?? "user"}`);
