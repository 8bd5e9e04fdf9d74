// The paths of this machine that no file of a store may hold (issue #30: a store can be shared):
// the project root (and where its linked node_modules really is), the temp dir, the home dir.
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../lab/paths.js";

export function machinePaths(): string[] {
  const dirs = [PROJECT_ROOT, tmpdir(), homedir(), join(PROJECT_ROOT, "node_modules")];
  const real = dirs.filter(existsSync).map((d) => realpathSync(d));
  return [...new Set([...dirs.slice(0, 3), ...real.filter((r) => !r.startsWith(PROJECT_ROOT + "/"))])].filter((d) => d.length > 1);
}

/** Each machine path `text` holds, as a whole name (/tmp, not /tmpfoo nor a/tmp), with what is near it. */
export function pathsIn(text: string): { path: string; near: string }[] {
  return machinePaths().flatMap((path) => {
    const m = new RegExp(`(?<![\\w.~-])${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w.~-])`).exec(text);
    return m ? [{ path, near: text.slice(Math.max(0, m.index - 40), m.index + 60) }] : [];
  });
}

/** Every file under `dir` and each machine path it holds. */
export function scanStore(dir: string): { file: string; path: string; near: string }[] {
  const found: { file: string; path: string; near: string }[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const file = join(at, name);
      if (statSync(file).isDirectory()) walk(file);
      else found.push(...pathsIn(readFileSync(file, "utf8")).map((p) => ({ file: file.slice(dir.length + 1), ...p })));
    }
  };
  walk(dir);
  return found;
}
