// Finding and parsing a notebook's output blocks:
//
//   <!-- lab:output run="nested --loop serial --transport memory --repeat 1" show="swimlane" -->
//   ...written by the engine...
//   <!-- /lab:output -->
//
// A malformed marker is an error naming the file and line, never prose. Marker lines inside a
// fenced code block in the prose are text, not markers.
import { SHOWS, type Show } from "./shows.js";

const OPEN = /^<!--\s*lab:output(\s.*?)?\s*-->$/;
const CLOSE = /^<!--\s*\/lab:output\s*-->$/;
/** A line that starts like a marker must be one exactly: anything else is an error, not prose. */
const MARKERISH = /^<!--\s*\/?\s*lab:/;

/** A malformed notebook: names the file and line. The CLI exits 2. */
export class NotebookError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    message: string,
  ) {
    super(`${file}:${line}: ${message}`);
  }
}

export interface Block {
  /** 1-based line numbers of the opening and closing markers */
  open: number;
  close: number;
  run: string;
  show: Show;
  /** only these scenarios / contract cases of the run (by name); default: all of them */
  only?: string[];
  /** the lines between the markers, as they are in the file */
  body: string[];
}

function parseAttributes(file: string, line: number, text: string): { run: string; show: Show; only?: string[] } {
  const attrs = new Map<string, string>();
  const attr = /\s*([a-z]+)="([^"]*)"/y;
  let at = 0;
  while (at < text.length) {
    attr.lastIndex = at;
    const m = attr.exec(text);
    if (!m) {
      if (text.slice(at).trim() === "") break;
      throw new NotebookError(file, line, `malformed lab:output marker near '${text.slice(at).trim()}': write name="value" pairs (run, show, only)`);
    }
    const [, name, value] = m as unknown as [string, string, string];
    if (name !== "run" && name !== "show" && name !== "only") throw new NotebookError(file, line, `unknown attribute '${name}' in lab:output marker (valid: run, show, only)`);
    if (attrs.has(name)) throw new NotebookError(file, line, `attribute '${name}' given twice`);
    attrs.set(name, value);
    at = attr.lastIndex;
  }
  const run = attrs.get("run")?.trim();
  const show = attrs.get("show");
  if (!run) throw new NotebookError(file, line, `lab:output marker needs run="<what follows tsx lab/run.ts>"`);
  if (show === undefined) throw new NotebookError(file, line, `lab:output marker needs show="${Object.keys(SHOWS).join("|")}"`);
  if (!(show in SHOWS)) throw new NotebookError(file, line, `unknown show="${show}" (valid: ${Object.keys(SHOWS).join(", ")})`);
  const argv = run.split(/\s+/);
  if (argv[0] === "notebooks") throw new NotebookError(file, line, "a notebook cannot run the notebooks command");
  if (argv.some((a) => a === "--out" || a.startsWith("--out="))) throw new NotebookError(file, line, "run must not set --out: the engine decides where run output goes");
  const only = attrs.get("only")?.split(",").map((name) => name.trim()).filter(Boolean);
  if (only !== undefined && only.length === 0) throw new NotebookError(file, line, `only="" names nothing: list scenario or contract case names, comma-separated`);
  return { run, show: show as Show, ...(only && { only }) };
}

export function parseNotebook(file: string, text: string): { lines: string[]; blocks: Block[] } {
  const lines = text.split("\n");
  const blocks: Block[] = [];
  let open: { line: number; run: string; show: Show; only?: string[]; body: string[] } | undefined;
  let fence: string | undefined;
  lines.forEach((raw, i) => {
    const n = i + 1;
    const line = raw.trim();
    if (open) {
      if (CLOSE.test(line)) {
        const { line: at, body, ...rest } = open;
        blocks.push({ open: at, close: n, ...rest, body });
        open = undefined;
      } else if (MARKERISH.test(line)) {
        throw new NotebookError(file, n, `marker inside the output block opened at line ${open.line}: close it with <!-- /lab:output --> first`);
      } else open.body.push(raw);
      return;
    }
    const f = /^(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (f && f[0] === fence[0] && f.length >= fence.length && line.slice(f.length).trim() === "") fence = undefined;
      return;
    }
    if (f) {
      fence = f;
      return;
    }
    if (!MARKERISH.test(line)) return;
    const m = OPEN.exec(line);
    if (m) {
      open = { line: n, ...parseAttributes(file, n, m[1] ?? ""), body: [] };
      return;
    }
    if (CLOSE.test(line)) throw new NotebookError(file, n, "closing <!-- /lab:output --> without an opening marker");
    throw new NotebookError(file, n, `malformed marker '${line}': expected <!-- lab:output run="..." show="..." --> or <!-- /lab:output -->`);
  });
  if (open) throw new NotebookError(file, open.line, "output block is never closed (<!-- /lab:output -->)");
  return { lines, blocks };
}
