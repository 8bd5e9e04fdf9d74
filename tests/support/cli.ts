// The lab's CLI, two ways. runCli: a real child process, with a bound, for what only the
// process boundary shows (exit status, colour on a pipe or a terminal, no stack trace, children
// of a CLI run). runMain: the same main() in this process, its console captured, for everything
// else (usage, messages, what a command prints and writes), without a second Node start.
import "./child-pids.js";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { main } from "../../lab/run.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export function runCli(args: string[], timeoutMs = 60_000) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "lab/run.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: timeoutMs,
    // FORCE_COLOR (set by some terminals and runners) would override NO_COLOR with a warning.
    env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "FORCE_COLOR")), NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, signal: result.signal };
}

export interface MainResult {
  code: number;
  stdout: string;
  stderr: string;
  /** set when main() threw instead of returning an exit code (the CLI would show a stack trace) */
  threw?: unknown;
}

/** Runs main(args) here, with console.log/error captured and colour off; never throws. */
export async function runMain(args: string[]): Promise<MainResult> {
  const out: string[] = [];
  const err: string[] = [];
  const saved = { log: console.log, error: console.error, warn: console.warn, noColor: process.env.NO_COLOR };
  const text = (parts: unknown[]) => parts.map((p) => (typeof p === "string" ? p : String(p))).join(" ");
  console.log = (...parts: unknown[]) => void out.push(text(parts));
  console.error = (...parts: unknown[]) => void err.push(text(parts));
  console.warn = console.error;
  process.env.NO_COLOR = "1";
  try {
    const code = await main(args);
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  } catch (threw) {
    return { code: -1, stdout: out.join("\n"), stderr: err.join("\n"), threw };
  } finally {
    console.log = saved.log;
    console.error = saved.error;
    console.warn = saved.warn;
    if (saved.noColor === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = saved.noColor;
  }
}
