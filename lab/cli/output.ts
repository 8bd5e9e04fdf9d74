// Run output lands in a store where nothing is replaced: every invocation writes to a folder of
// its own under the store's root (run-output/ unless --out names another), `<root>/latest` points
// at the newest, `<root>/index.html` lists them (lab/cli/store.ts). Files are written atomically
// (temp file + rename) so a reader never sees half a file. The root is checked before any session
// runs, and the checks are bounded: folders are made one step at a time, pseudo-filesystems and
// folders that hold the project's own files are refused in words. A write that fails is an
// OutputError: one line that names the path and the reason, exit 2 (1 stays "an expectation failed").
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statfsSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { PROJECT_ROOT, RUN_OUTPUT_DIR } from "../paths.js";
import { portableText } from "./portable.js";

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
  ELOOP: "too many symbolic links",
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

/** Folders of the project whose files are tracked: run output never goes into them. */
const PROJECT_FOLDERS = ["expected", "lab", "scenarios", "notebooks", "tests", ".ci", ".git", "node_modules"];
/** statfs magic numbers of filesystems that are views of the kernel, not storage. */
const PSEUDO_FS: Record<number, string> = { 0x9fa0: "proc", 0x62656572: "sysfs", 0x1cd1: "devpts", 0x64626720: "debugfs", 0x74726163: "tracefs", 0x27e0eb: "cgroup", 0x63677270: "cgroup2" };
const PSEUDO_ROOTS = ["/proc", "/sys", "/dev"];
/** Bounds on what a path may ask of the filesystem: no check can run long. */
const MAX_PATH = 4096;
const MAX_DEPTH = 64;

const inside = (path: string, folder: string) => path === folder || path.startsWith(folder + sep);

/** The nearest part of `path` that exists, resolved through symbolic links, and the rest of it. */
function nearestExisting(path: string): { real: string; rest: string[] } {
  const rest: string[] = [];
  let at = path;
  for (let depth = 0; depth <= MAX_DEPTH; depth++) {
    if (existsSync(at)) return { real: realpathSync(at), rest };
    const up = dirname(at);
    if (up === at) break;
    rest.unshift(basename(at));
    at = up;
  }
  throw new OutputError(`more than ${MAX_DEPTH} folders to create`);
}

/** A folder that directly holds a hand-written expectation (a JSON object with a `basis` or `why`). */
function holdsExpectation(dir: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith(".json")).slice(0, 500);
  } catch {
    return undefined;
  }
  for (const name of names) {
    try {
      const file = join(dir, name);
      if (!statSync(file).isFile() || statSync(file).size > 1_000_000) continue;
      const data = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
      if (data && typeof data === "object" && !Array.isArray(data) && (typeof data.basis === "string" || typeof data.why === "string")) return name;
    } catch {
      // not JSON, not an expectation
    }
  }
  return undefined;
}

/** Why run output must not go to `path` (resolved), or undefined when it may. */
export function refusal(path: string): string | undefined {
  if (path.length > MAX_PATH) return `the path is longer than ${MAX_PATH} characters`;
  const { real, rest } = nearestExisting(path);
  const target = join(real, ...rest);
  const pseudo = PSEUDO_ROOTS.find((r) => inside(target, r));
  if (pseudo) return `${pseudo} is a pseudo-filesystem (a view of the kernel), not storage`;
  try {
    const type = PSEUDO_FS[Number(statfsSync(real).type)];
    if (type) return `it is on a ${type} pseudo-filesystem, not storage`;
  } catch {
    // statfs unsupported here: the write probe decides
  }
  const root = realpathSync(PROJECT_ROOT);
  if (target === root || inside(root, target)) return "it holds the project's own files (the repository root or a folder above it); use run-output/ or a folder of its own";
  const folder = PROJECT_FOLDERS.find((f) => inside(target, join(root, f)));
  if (folder) return `it is inside ${folder}/, which holds the project's tracked files`;
  if (rest.length === 0) {
    const expectation = holdsExpectation(target);
    if (expectation) return `it holds an expectation file (${expectation}); run output never goes beside hand-written evidence`;
  }
  return undefined;
}

/** mkdir one folder at a time from the nearest existing one, at most MAX_DEPTH steps. */
function makeFolders(path: string, flag: string, dir: string): void {
  const { real, rest } = nearestExisting(path);
  let at = real;
  for (const part of rest) {
    at = join(at, part);
    try {
      mkdirSync(at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST" && statSync(at).isDirectory()) continue;
      throw new OutputError(`${flag} ${dir}: cannot create the folder: ${reason(error)}`);
    }
  }
}

/** What can be said of `dir` without touching it: throws the OutputError that refuses it (a
 *  folder the lab must not write in, a file), else returns its resolved path. */
export function refuseFolder(dir: string, flag = "--out"): string {
  const path = resolve(dir);
  let why: string | undefined;
  try {
    why = refusal(path);
  } catch (error) {
    throw new OutputError(`${flag} ${dir}: ${error instanceof OutputError ? error.message : reason(error)}`);
  }
  if (why) throw new OutputError(`${flag} ${dir}: refused: ${why}`);
  if (existsSync(path) && !statSync(path).isDirectory()) throw new OutputError(`${flag} ${dir}: is a file, not a folder`);
  return path;
}

/**
 * Makes sure `dir` is a folder the lab may and can write in, before anything runs: refuses the
 * project's own folders and pseudo-filesystems, creates it if missing, then writes and removes a
 * probe file (permission bits alone do not say it: root ignores them, a read-only mount does not
 * show in them). Returns the resolved path.
 */
export function ensureWritableFolder(dir: string, flag = "--out"): string {
  const path = refuseFolder(dir, flag);
  makeFolders(path, flag, dir);
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
 * A report file a flag names (--junit FILE, --report FILE): checked before anything runs, in the
 * same words as --out. It is never written over: an existing file is refused. Returns its path.
 */
export function ensureNewReportFile(file: string, flag: string): string {
  const path = resolve(file);
  if (existsSync(path)) throw new OutputError(`${flag} ${file}: refused: the file exists, and the lab never writes over an earlier report`);
  ensureWritableFolder(dirname(path), flag);
  return path;
}

/** The store's root when --out is not given: run-output/, also for --expected DIR runs (never DIR). */
export function defaultOutDir(_expectedDir?: string): string {
  return RUN_OUTPUT_DIR;
}

/**
 * Writes `text` to `path` through a temp file and a rename. Every path of this machine in it is
 * made portable first (portable.ts), so a store can be shared; `verbatim` writes the text as it
 * is (a notebook, whose committed text its check compares).
 */
export function writeAtomic(path: string, text: string, options: { verbatim?: boolean } = {}): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    if (!existsSync(dirname(path))) mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temp, options.verbatim ? text : portableText(text, dirname(resolve(path))));
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

export function runOutputPath(dir: string, scenario: string, loop: string, suffix = ""): string {
  return join(dir, `${scenario}.${loop}${suffix}.json`);
}

/** Whether `path` is a symbolic link (lstat, so a dangling one counts). */
export function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
