// Run output lands in run-output/, written atomically (temp file + rename) so a reader never
// sees half a file, and written whatever the verdicts say. A folder that cannot take the output
// is found before any session runs; a write that fails anyway is an OutputError: one line that
// names the path and the reason, exit 2 (1 stays "an expectation failed").
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { EXPECTED_DIR, RUN_OUTPUT_DIR } from "../paths.js";

export { RUN_OUTPUT_DIR } from "../paths.js";

/** The run output could not be written: the CLI prints the message as one line and exits 2. */
export class OutputError extends Error {}

const REASONS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  ENOTDIR: "a part of the path is a file, not a folder",
  EISDIR: "a folder is in the way",
  ENOENT: "a part of the path does not exist",
  ENAMETOOLONG: "the name is too long",
  EEXIST: "something is already there",
};

/** One line: the error's code in words, else its message's first line. */
export function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e?.code && REASONS[e.code]) return `${REASONS[e.code]} (${e.code})`;
  return String(e?.message ?? error).split("\n")[0]!;
}

/** A path as the reader typed it would be: relative to the working folder when inside it. */
export function shown(path: string): string {
  const near = relative(process.cwd(), path);
  return near && !near.startsWith("..") && !isAbsolute(near) ? near : path;
}

/**
 * Makes sure `dir` is a folder the lab can write in, before anything runs: creates it if
 * missing, then writes and removes a probe file (permission bits alone do not say it: root
 * ignores them, a read-only mount does not show in them). Returns the resolved path.
 */
export function ensureWritableFolder(dir: string, flag = "--out"): string {
  const path = resolve(dir);
  if (existsSync(path) && !statSync(path).isDirectory()) throw new OutputError(`${flag} ${dir}: is a file, not a folder`);
  try {
    mkdirSync(path, { recursive: true });
  } catch (error) {
    throw new OutputError(`${flag} ${dir}: cannot create the folder: ${reason(error)}`);
  }
  const probe = join(path, `.lab-write-probe-${process.pid}`);
  try {
    writeFileSync(probe, "");
  } catch (error) {
    throw new OutputError(`${flag} ${dir}: cannot write in this folder: ${reason(error)}`);
  } finally {
    rmSync(probe, { force: true });
  }
  return path;
}

/**
 * Where a run writes when --out is not given: run-output/, except that a run judged against
 * expectations of one's own (--expected DIR) writes to DIR/run-output/, so it never replaces
 * the evidence of the real expectations.
 */
export function defaultOutDir(expectedDir: string | undefined): string {
  if (expectedDir === undefined || resolve(expectedDir) === EXPECTED_DIR) return RUN_OUTPUT_DIR;
  return join(expectedDir, "run-output");
}

export function writeAtomic(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temp, text);
    renameSync(temp, path);
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // the temp file could not be made either; nothing to clean
    }
    throw new OutputError(`cannot write ${shown(path)}: ${reason(error)}`);
  }
}

export function writeJsonAtomic(path: string, data: unknown): void {
  writeAtomic(path, `${JSON.stringify(data, null, 2)}\n`);
}

export function runOutputPath(dir: string, scenario: string, dispatch: string, suffix = ""): string {
  return join(dir, `${scenario}.${dispatch}${suffix}.json`);
}
