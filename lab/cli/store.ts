// The store (after Jepsen's store/<test>/<time>/): every invocation of a run command writes to a
// folder of its own, <root>/<UTC time>-<command>/, and nothing in it is ever replaced by a later
// invocation. <root>/latest is a symbolic link to the newest; <root>/index.html lists them all.
// Old invocations go only when asked (`lab clean --keep N`).
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { ensureWritableFolder, isLink, OutputError, reason, shown, writeAtomic } from "./output.js";
import { read, UsageError, type Parsed } from "./args.js";
import { RUN_OUTPUT_DIR } from "../paths.js";

export const LATEST = "latest";
/** <UTC time>-<command>[-n]: names sort as the invocations were made */
const INVOCATION = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z-[a-z0-9-]+$/;

export interface Invocation {
  root: string;
  dir: string;
  name: string;
}

/** A folder of its own for this invocation, made before anything runs; `latest` points at it. */
export function openInvocation(rootArg: string, command: string, flag = "--out"): Invocation {
  const root = ensureWritableFolder(rootArg, flag);
  const stamp = new Date().toISOString().replace(/:/g, "-");
  const word = command.toLowerCase().replace(/[^a-z0-9-]+/g, "-").slice(0, 40) || "run";
  for (let n = 1; n <= 100; n++) {
    const name = `${stamp}-${word}${n === 1 ? "" : `-${n}`}`;
    const dir = join(root, name);
    try {
      mkdirSync(dir); // not recursive: EEXIST means another invocation took the name
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw new OutputError(`cannot create ${shown(dir)}: ${reason(error)}`);
    }
    pointLatest(root, name);
    return { root, dir, name };
  }
  throw new OutputError(`cannot find a free folder name under ${shown(root)}`);
}

/** Swaps <root>/latest to `name` atomically (a new link renamed over the old one). */
function pointLatest(root: string, name: string): void {
  const link = join(root, LATEST);
  if (existsSync(link) && !isLink(link)) return; // someone's own folder called latest: left alone
  const temp = join(root, `.latest.${process.pid}.tmp`);
  try {
    rmSync(temp, { force: true });
    symlinkSync(name, temp, "dir");
    renameSync(temp, link);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new OutputError(`cannot point ${shown(link)} at ${name}: ${reason(error)}`);
  }
}

/** The invocations under `root`, oldest first. */
export function invocations(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root).filter((n) => INVOCATION.test(n) && statSync(join(root, n)).isDirectory()).sort();
}

/** The folder `latest` points at, or undefined. */
export function latestDir(root = RUN_OUTPUT_DIR): string | undefined {
  const link = join(root, LATEST);
  return existsSync(link) ? realpathSync(link) : undefined;
}

interface Listed {
  name: string;
  runs: number;
  failed: number;
  interrupted: boolean;
}

/** What an invocation's folder holds, read from its case reports (a file of another shape counts nothing). */
function listed(root: string, name: string): Listed {
  const dir = join(root, name);
  let runs = 0;
  let failed = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    try {
      const data = JSON.parse(readFileSync(join(dir, file), "utf8")) as { runs?: { ok?: unknown }[]; cases?: { runs?: { ok?: unknown }[] }[] };
      const all = [...(Array.isArray(data.runs) ? data.runs : []), ...(Array.isArray(data.cases) ? data.cases.flatMap((c) => (Array.isArray(c.runs) ? c.runs : [])) : [])];
      runs += all.length;
      failed += all.filter((r) => r.ok !== true).length;
    } catch {
      // not a report
    }
  }
  return { name, runs, failed, interrupted: existsSync(join(dir, "interrupted.txt")) };
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** <root>/index.html: every invocation, newest first, with its runs and a link to its own page. */
export function writeStoreIndex(root: string): string {
  const names = invocations(root).reverse();
  const latest = latestDir(root);
  const rows = names.map((n) => {
    const l = listed(root, n);
    const outcome = l.interrupted ? "INTERRUPTED" : l.failed ? `${l.failed} FAILED` : l.runs ? "PASS" : "no runs";
    return `<li><a href="${escape(n)}/index.html">${escape(n)}</a>${latest && basename(latest) === n ? " (latest)" : ""}: ${l.runs} run(s), ${outcome}</li>`;
  });
  const page = `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Lab run store</title></head>\n<body><main><h1>Lab run store</h1>\n<p>${names.length} invocation(s), newest first; each folder is never replaced by a later run.</p>\n<ul>\n${rows.join("\n")}\n</ul></main></body></html>\n`;
  const path = join(root, "index.html");
  writeAtomic(path, page);
  return path;
}

/** `lab clean --keep N`: the only way an invocation leaves the store. */
export async function cleanMain(args: Parsed): Promise<number> {
  const keep = read.whole(args, "keep");
  const root = read.text(args, "out") ?? RUN_OUTPUT_DIR;
  if (keep === undefined) throw new UsageError("clean needs --keep N (how many of the newest invocations to keep)");
  const dir = ensureWritableFolder(root);
  const latest = latestDir(dir);
  const all = invocations(dir);
  const gone = all.slice(0, Math.max(0, all.length - keep)).filter((n) => !latest || basename(latest) !== n);
  for (const name of gone) rmSync(join(dir, name), { recursive: true, force: true });
  writeStoreIndex(dir);
  console.log(`clean: removed ${gone.length} of ${all.length} invocation(s) from ${shown(dir)}${gone.length ? `: ${gone.join(", ")}` : ""}`);
  return 0;
}
