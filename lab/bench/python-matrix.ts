// The Python matrix as a reader types it: the real CLI in its own process, its output to a temp
// dir, its wall time (a figure with no goal in bench).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { PROJECT_ROOT } from "../paths.js";

const MATRIX_BOUND_MS = 600_000;
export const PYTHON_MATRIX_ARGS = ["all", "--client", "py,py-inline", "--server", "ts1,py", "--transport", "stdio", "--repeat", "1"];

export function pythonMatrix(): { args: string[]; wallMs: number; exitCode: number | null } {
  const out = mkdtempSync(join(tmpdir(), "lab-bench-py-"));
  try {
    const start = performance.now();
    const r = spawnSync(process.execPath, ["--import", "tsx", join(PROJECT_ROOT, "lab", "run.ts"), ...PYTHON_MATRIX_ARGS, "--json", "--out", out], {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
      timeout: MATRIX_BOUND_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { args: PYTHON_MATRIX_ARGS, wallMs: performance.now() - start, exitCode: r.status };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
