// Blocks that show a file of the project rather than a lab run: `source` (the file as it is) and
// `program` (a .ts or .py file run as a bounded child, and what it printed). Their `run` is the
// file's path from the project root, then the program's arguments: run="lab/demos/loops/main.ts wrong".
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, normalize } from "node:path";
import { ROOT, type RunOutput } from "./runs.js";

/** The shows whose run names a file, not a lab command. */
export const FILE_SHOWS: ReadonlySet<string> = new Set(["source", "program"]);
/** No program of a notebook may take longer than this. */
export const PROGRAM_BOUND_MS = 30_000;

const LANGUAGES: Record<string, { fence: string; command: string }> = {
  ".ts": { fence: "ts", command: "npx tsx" },
  ".py": { fence: "python", command: "python3" },
};

const languageOf = (path: string) => LANGUAGES[/\.[a-z]+$/.exec(path)?.[0] ?? ""];

/** The fence's language for a source block. */
export const fenceOf = (run: string) => languageOf(run.split(/\s+/)[0]!)?.fence ?? "text";
/** The command line a reader types to run a program block. */
export const commandOf = (run: string) => `${languageOf(run.split(/\s+/)[0]!)?.command ?? "?"} ${run}`;

const refused = (run: string, why: string): RunOutput => ({ run, code: 2, signal: null, stdout: "", stderr: why, reports: [] });

/** Reads (source) or runs (program) the file a block names; a bad path is exit 2, as a bad lab command is. */
export function runFile(show: string, run: string): Promise<RunOutput> {
  const [path, ...args] = run.split(/\s+/) as [string, ...string[]];
  if (normalize(path).startsWith("..") || path.startsWith("/") || !languageOf(path) || !existsSync(join(ROOT, path))) {
    return Promise.resolve(refused(run, `show="${show}" needs run="<a .ts or .py file of the project> [arguments]", and ${path} is not one`));
  }
  if (show === "source") return Promise.resolve({ run, code: 0, signal: null, stdout: readFileSync(join(ROOT, path), "utf8"), stderr: "", reports: [] });
  const [file, argv] = path.endsWith(".py") ? ["python3", [path, ...args]] : [process.execPath, ["--import", "tsx", path, ...args]];
  return new Promise((done) => {
    execFile(file, argv, { cwd: ROOT, encoding: "utf8", timeout: PROGRAM_BOUND_MS, env: { ...process.env, NO_COLOR: "1" } }, (error, stdout, stderr) => {
      const e = error as (Error & { code?: unknown; signal?: string | null }) | null;
      done({ run, code: e ? (typeof e.code === "number" ? e.code : null) : 0, signal: e?.signal ?? null, stdout, stderr, reports: [] });
    });
  });
}
