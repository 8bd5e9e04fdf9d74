// Builds the v2 stdio child the way lab/child-build.ts builds the ts1 one: esbuild bundles
// lab/peers/ts2/child.ts into one CommonJS file, then Node captures it in a V8 startup snapshot,
// so a child starts with the SDK already initialised and nothing is transpiled at spawn.
// `npm ci` builds it (prepare -> build:child -> lab/child-build.ts calls buildTs2Child); the
// ensure function rebuilds on first use when the build is missing, stale or made by another Node.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { runBuildStep } from "../build-step.js";

import { PROJECT_ROOT } from "../../paths.js";

export const TS2_CHILD_BUNDLE = join(PROJECT_ROOT, "build", "ts2-server.cjs");
export const TS2_CHILD_SNAPSHOT = join(PROJECT_ROOT, "build", "ts2-server.blob");
const TS2_CHILD_STAMP = join(PROJECT_ROOT, "build", "ts2-server.node");
/** How the snapshot child is started (argv[1] is a name, as for a script). */
export const TS2_CHILD_ARGS: readonly string[] = ["--snapshot-blob", TS2_CHILD_SNAPSHOT, "ts2-server"];
/** The same child without the snapshot: the plain bundle (for comparison). */
export const TS2_CHILD_BUNDLE_ARGS: readonly string[] = [TS2_CHILD_BUNDLE];

/** The sources the child is built from, besides node_modules. */
const SOURCES = [join(PROJECT_ROOT, "lab", "peers", "ts2"), join(PROJECT_ROOT, "lab", "peers", "form.ts"), join(PROJECT_ROOT, "lab", "peers", "vocabulary.ts")];

/** Why the built child cannot be used as is, or undefined when it is up to date. */
export async function ts2ChildStaleness(): Promise<string | undefined> {
  for (const file of [TS2_CHILD_BUNDLE, TS2_CHILD_SNAPSHOT, TS2_CHILD_STAMP]) if (!existsSync(file)) return `${file} is missing`;
  const madeBy = readFileSync(TS2_CHILD_STAMP, "utf8").trim();
  if (madeBy !== process.version) return `the ts2 snapshot was made by Node ${madeBy}, this is ${process.version}`;
  const built = Math.min((await stat(TS2_CHILD_BUNDLE)).mtimeMs, (await stat(TS2_CHILD_SNAPSHOT)).mtimeMs);
  for (const source of SOURCES) {
    const files = source.endsWith(".ts") ? [source] : (await readdir(source)).filter((n) => n.endsWith(".ts")).map((n) => join(source, n));
    for (const file of files) if ((await stat(file)).mtimeMs > built) return `${file} is newer than the built ts2 child`;
  }
  return undefined;
}

let building: Promise<void> | undefined;

/** Builds the ts2 child at most once per process; rejects with the builder's output if that fails. */
export function ensureTs2ChildBuilt(): Promise<void> {
  building ??= (async () => {
    const reason = await ts2ChildStaleness();
    if (reason === undefined) return;
    await buildTs2Child(reason);
    const still = await ts2ChildStaleness();
    if (still !== undefined) throw new Error(`building the ts2 stdio child did not help: ${still}`);
  })();
  return building;
}

export async function buildTs2Child(reason: string): Promise<void> {
  const { build } = await import("esbuild");
  // Temporary names renamed into place: a child started meanwhile never loads half a blob.
  const temp = `.${process.pid}.tmp`;
  await build({
    entryPoints: [join(PROJECT_ROOT, "lab", "peers", "ts2", "child.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    outfile: TS2_CHILD_BUNDLE + temp,
    logLevel: "warning",
  });
  await runBuildStep(process.execPath, ["--snapshot-blob", TS2_CHILD_SNAPSHOT + temp, "--build-snapshot", TS2_CHILD_BUNDLE + temp], reason);
  writeFileSync(TS2_CHILD_STAMP + temp, `${process.version}\n`);
  for (const file of [TS2_CHILD_BUNDLE, TS2_CHILD_SNAPSHOT, TS2_CHILD_STAMP]) renameSync(file + temp, file);
}
