// Runs the lab's CLI as a real child process, with a bound, and returns what it printed.
import "./child-pids.js";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export function runCli(args: string[], timeoutMs = 60_000) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "lab/run.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: timeoutMs,
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, signal: result.signal };
}
