// The notebooks engine: each notebook in notebooks/ is Markdown whose output blocks are made by
// real runs. `tsx lab/run.ts notebooks` re-runs what each block shows and rewrites only the
// blocks' contents; `--check` compares instead (times and pids ignored) and says which notebook
// and which block differ. Prose is never touched.
//
// Each block's `run` is what follows `tsx lab/run.ts` on the command line (runs.ts); `show` picks
// what the block holds, from that one run (shows.ts); the optional `only="a,b"` keeps just the
// reports of those scenarios or contract cases. Blocks with the same `run` share one run.
// markers.ts finds the blocks; normalise.ts says what --check ignores.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { read, type Parsed } from "../cli/args.js";
import { OutputError, writeAtomic } from "../cli/output.js";
import { NotebookError, parseNotebook } from "./markers.js";
import { describeMismatch, firstDifference, type Mismatch } from "./normalise.js";
import { cliRunner, limited, type Runner, type RunOutput } from "./runs.js";
import { FILE_SHOWS, runFile } from "./programs.js";
import { syncPictures } from "./pictures.js";
import { renderBlock, unsuitable } from "./shows.js";

export { NOTEBOOKS_DIR } from "../paths.js";
import { NOTEBOOKS_DIR } from "../paths.js";

export interface NotebookOptions {
  dir?: string;
  /** notebook file names (in dir) or paths; default: every .md file in dir */
  files?: string[];
  check: boolean;
  runner?: Runner;
  /** runs at once (default 2: one per core of the machine the figures in the README come from) */
  concurrency?: number;
  log?: (line: string) => void;
}

export const DEFAULT_CONCURRENCY = 2;

export interface NotebookResult {
  code: 0 | 1;
  mismatches: Mismatch[];
  updated: number;
  unchanged: number;
  failedRuns: string[];
}

/** Re-runs every block of every notebook; rewrites the blocks that differ, or (check) reports them. */
export async function runNotebooks(options: NotebookOptions): Promise<NotebookResult> {
  const dir = resolve(options.dir ?? NOTEBOOKS_DIR);
  if (!existsSync(dir)) throw new NotebookError(dir, 0, "no such notebooks directory");
  const log = options.log ?? ((line: string) => console.log(line));
  const runner = options.runner ?? cliRunner();
  const paths = (options.files?.length ? options.files : readdirSync(dir).filter((f) => f.endsWith(".md")).sort()).map((f) =>
    f.includes("/") ? resolve(f) : join(dir, f),
  );
  // Parse everything first: a malformed notebook stops the engine before any run.
  const notebooks = paths.map((path) => {
    const near = relative(process.cwd(), path);
    const file = near && !near.startsWith("..") ? near : path;
    return { path, file, ...parseNotebook(file, readFileSync(path, "utf8")) };
  });

  // Every distinct run starts now, `concurrency` at a time, each exactly once; the blocks then
  // take their outputs in order. What a run prints does not depend on what runs beside it.
  // A source or program block's run names a file (programs.ts): keyed apart from lab runs.
  const cache = new Map<string, Promise<RunOutput>>();
  const keyOf = (block: { show: string; run: string }) => (FILE_SHOWS.has(block.show) ? `${block.show}\n${block.run}` : block.run);
  const start = limited((key) => (key.includes("\n") ? runFile(key.split("\n")[0]!, key.split("\n")[1]!) : runner(key)), options.concurrency ?? DEFAULT_CONCURRENCY);
  for (const block of notebooks.flatMap((nb) => nb.blocks)) {
    if (!cache.has(keyOf(block))) {
      const pending = start(keyOf(block));
      pending.catch(() => {}); // awaited below, in block order; no unhandled rejection meanwhile
      cache.set(keyOf(block), pending);
    }
  }
  const result: NotebookResult = { code: 0, mismatches: [], updated: 0, unchanged: 0, failedRuns: [] };
  for (const nb of notebooks) {
    const lines = [...nb.lines];
    let shift = 0; // lines added or removed by rewrites above the current block
    let changed = 0;
    for (const block of nb.blocks) {
      const output = await cache.get(keyOf(block))!;
      if (output.code === 2) {
        throw new NotebookError(nb.file, block.open, `run="${block.run}" is not a valid ${FILE_SHOWS.has(block.show) ? "file to show" : "lab command"}: ${output.stderr.trim().split("\n")[0] ?? ""}`);
      }
      if (output.code !== 0 && output.code !== 1) {
        throw new Error(`${nb.file}:${block.open}: run="${block.run}" did not finish (exit ${String(output.code)}, signal ${String(output.signal)}): ${output.stderr.trim().slice(0, 500)}`);
      }
      if (output.code === 1 && !result.failedRuns.includes(block.run)) result.failedRuns.push(block.run);
      // `only` names scenarios, contract cases or columns (e.g. sdk.py-inline.ts1)
      const named = (r: RunOutput["reports"][number], name: string) => r.scenario === name || r.column === name;
      const missing = block.only?.filter((name) => !output.reports.some((r) => named(r, name))) ?? [];
      if (missing.length) {
        throw new NotebookError(nb.file, block.open, `only="${block.only!.join(",")}": run="${block.run}" has no ${missing.join(", ")} (it ran ${output.reports.map((r) => r.scenario).join(", ") || "nothing"})`);
      }
      const shown = block.only ? { ...output, reports: output.reports.filter((r) => block.only!.some((name) => named(r, name))) } : output;
      const why = unsuitable(block.show, shown);
      if (why) throw new NotebookError(nb.file, block.open, why);
      const fresh = renderBlock(block.show, shown);
      // A picture is a file beside the notebook: kept (or checked) whatever the block's line says.
      if (block.show === "picture") {
        for (const p of syncPictures(dirname(nb.path), shown, options.check)) {
          result.mismatches.push({ file: nb.file, block, line: block.open, notebook: `${p.file}: ${p.committed ?? "(nothing)"}`, fresh: p.fresh });
        }
      }
      const at = firstDifference(block.body, fresh);
      if (at === undefined) {
        result.unchanged++;
        continue;
      }
      if (options.check) {
        result.mismatches.push({ file: nb.file, block, line: block.open + 1 + at.index, notebook: at.notebook, fresh: at.fresh });
        continue;
      }
      lines.splice(block.open + shift, block.body.length, ...fresh);
      shift += fresh.length - block.body.length;
      changed++;
    }
    if (changed) writeAtomic(nb.path, lines.join("\n"), { verbatim: true });
    result.updated += changed;
    if (!options.check) log(`${nb.file}: ${nb.blocks.length} output blocks, ${changed} rewritten`);
  }
  for (const m of result.mismatches) log(describeMismatch(m));
  for (const run of result.failedRuns) log(`warning: run="${run}" failed an expectation (the CLI exited 1)`);
  if (options.check) {
    log(
      result.mismatches.length
        ? `${result.mismatches.length} output block(s) differ from a fresh run: run \`npx tsx lab/run.ts notebooks\` to rewrite them`
        : `${notebooks.length} notebook(s), ${result.unchanged} output blocks: all match a fresh run`,
    );
  }
  result.code = result.mismatches.length || result.failedRuns.length ? 1 : 0;
  return result;
}

export async function main(args: Parsed): Promise<number> {
  const dir = read.text(args, "dir");
  const options: NotebookOptions = { check: read.flag(args, "check"), files: [...args.positionals], ...(dir !== undefined && { dir }) };
  try {
    return (await runNotebooks(options)).code;
  } catch (error) {
    if (error instanceof NotebookError || error instanceof OutputError) {
      console.error(`error: ${error.message}`);
      return 2;
    }
    // A run that crashed or outlived its bound: the notebook is fine, the run is not.
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
