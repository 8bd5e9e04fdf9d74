// What a path looks like in anything the lab writes (the store's JSON, run pages, the index,
// card.md, SVGs, JUnit): never a path of this machine. The one owner, applied once by
// writeAtomic (output.ts) to the text as it is written, so evidence stays as recorded in memory
// and only path strings change in the file: the written file's own folder becomes relative to it
// (links between pages), a project file relative to the project root (build/go-client,
// expected/nested.sdk.json), a scratch file `<scratch>/<name>`, anything else under the temp dir
// `<tmp>/...`, under the home folder `~/...`, the node binary `<node>`.
import { existsSync, realpathSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { FASTMCP_VENV_DIR, PROJECT_ROOT, PY1_VENV_DIR, PY_VENV_DIR, PYTHON_VENVS_DIR, SCRATCH_DIR } from "../paths.js";

interface Rule {
  from: string;
  /** "" : the path becomes relative (the prefix and its slash go); else the placeholder */
  to: string;
}

/** The real path too, when a symbolic link (a worktree's linked node_modules, /tmp on macOS) hides it. */
function withReal(from: string, to: string): Rule[] {
  const real = existsSync(from) ? realpathSync(from) : from;
  return real === from ? [{ from, to }] : [{ from, to }, { from: real, to }];
}

/** Longest first, so the most specific prefix wins (scratch before tmp, the project before home). */
function rules(folder: string | undefined): Rule[] {
  const linked = [join(PROJECT_ROOT, "node_modules"), PY_VENV_DIR, PY1_VENV_DIR, FASTMCP_VENV_DIR, PYTHON_VENVS_DIR];
  const all = [
    ...(folder ? withReal(folder, "") : []),
    ...withReal(SCRATCH_DIR, "<scratch>"),
    ...linked.flatMap((dir) => withReal(dir, dir.slice(PROJECT_ROOT.length + 1))),
    ...withReal(PROJECT_ROOT, ""),
    ...withReal(tmpdir(), "<tmp>"),
    ...withReal(homedir(), "~"),
    // the node that runs the lab, as a child's argv names it (/usr/bin/node, ~/.nvm/...)
    { from: process.execPath, to: "<node>" },
  ];
  return all.filter((r) => r.from.length > 1).sort((a, b) => b.from.length - a.from.length);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A path's characters: a prefix counts only as a whole name (/tmp, not /tmpfoo nor a/tmp). */
const NAME = "[A-Za-z0-9_.~-]";

/**
 * `text` with every path of this machine made portable. `folder`: the folder the text is written
 * to, whose own paths become relative to it.
 */
export function portableText(text: string, folder?: string): string {
  let out = text;
  for (const { from, to } of rules(folder)) {
    const pattern = new RegExp(`(?<!${NAME})(file://)?${escape(from)}(?!${NAME})(/)?`, "g");
    out = out.replace(pattern, (_m, _file: string | undefined, slash: string | undefined) => {
      if (to === "") return slash ? "" : ".";
      // A link into the project that gets a placeholder keeps its scheme; a relative one cannot.
      return `${_file ?? ""}${to}${slash ?? ""}`;
    });
  }
  // A scratch file's name without the pid of the lab that made it: the same run reads the same.
  return out.replace(/<scratch>\/child-events-\d+-/g, "<scratch>/child-events-");
}
