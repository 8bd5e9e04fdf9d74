// The stdio child never transpiles TS at spawn. It is bundled into one CommonJS file and then
// captured in a V8 startup snapshot: the SDK, zod and ajv are already initialised when a child
// starts, which halves its start-up time (see README, benchmarks). `npm ci` builds it
// (prepare → build:child); this module rebuilds on first use when the build is missing, older
// than a lab source, or was made by another Node, with a bounded wait and a clear error.
import { runBuildStep } from "../build-step.js";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { BUILD_DIR, LAB_DIR, PROJECT_ROOT } from "../../paths.js";


export const CHILD_BUNDLE = join(BUILD_DIR, "child-server.cjs");
export const CHILD_SNAPSHOT = join(BUILD_DIR, "child-server.blob");
/** The Node that made the snapshot (a blob only loads in the same Node binary), and every
 *  source file esbuild bundled, so staleness covers exactly what the child contains. */
const CHILD_STAMP = join(BUILD_DIR, "child-server.stamp.json");

interface Stamp {
  node: string;
  /** project-relative paths of the bundled sources outside node_modules */
  inputs: string[];
}
/** How a child is started: argv[1] is a name, as for a script, so faults follow from argv[2]. */
export const CHILD_ARGS: readonly string[] = ["--snapshot-blob", CHILD_SNAPSHOT, "child-server"];

/** Why the built child cannot be used as is, or undefined when it is up to date. */
export async function childBuildStaleness(): Promise<string | undefined> {
  for (const file of [CHILD_BUNDLE, CHILD_SNAPSHOT, CHILD_STAMP]) if (!existsSync(file)) return `${file} is missing`;
  let stamp: Stamp;
  try {
    stamp = JSON.parse(readFileSync(CHILD_STAMP, "utf8")) as Stamp;
  } catch {
    return `${CHILD_STAMP} is unreadable`;
  }
  if (stamp.node !== process.version) return `the snapshot was made by Node ${stamp.node}, this is ${process.version}`;
  const built = Math.min((await stat(CHILD_BUNDLE)).mtimeMs, (await stat(CHILD_SNAPSHOT)).mtimeMs);
  for (const input of stamp.inputs) {
    const file = join(PROJECT_ROOT, input);
    if (!existsSync(file)) return `${input} (bundled into the child) is gone`;
    if ((await stat(file)).mtimeMs > built) return `${input} is newer than the built child`;
  }
  return undefined;
}

let building: Promise<void> | undefined;

/** Builds the child at most once per process; rejects with the builder's output if that fails. */
export function ensureChildBuilt(): Promise<void> {
  building ??= (async () => {
    const reason = await childBuildStaleness();
    if (reason === undefined) return;
    await buildChild(reason);
    const still = await childBuildStaleness();
    if (still !== undefined) throw new Error(`building the stdio child did not help: ${still}`);
  })();
  return building;
}

export async function buildChild(reason: string): Promise<void> {
  const { build } = await import("esbuild");
  // Built under temporary names and renamed into place, so a child started by another lab
  // process while this one builds never loads half a blob.
  const temp = `.${process.pid}.tmp`;
  const built = await build({
    entryPoints: [join(LAB_DIR, "peers", "ts1", "child-server.ts")],
    metafile: true,
    absWorkingDir: PROJECT_ROOT,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    outfile: CHILD_BUNDLE + temp,
    logLevel: "warning",
  });
  await runBuildStep(process.execPath, ["--snapshot-blob", CHILD_SNAPSHOT + temp, "--build-snapshot", CHILD_BUNDLE + temp], reason);
  const inputs = Object.keys(built.metafile.inputs).filter((input) => !input.includes("node_modules/"));
  const stamp: Stamp = { node: process.version, inputs: inputs.map((input) => relative(PROJECT_ROOT, join(PROJECT_ROOT, input))) };
  writeFileSync(CHILD_STAMP + temp, `${JSON.stringify(stamp, null, 2)}\n`);
  for (const file of [CHILD_BUNDLE, CHILD_SNAPSHOT, CHILD_STAMP]) renameSync(file + temp, file);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await buildChild("npm run build:child");
    console.log(`built ${CHILD_BUNDLE} and its snapshot ${CHILD_SNAPSHOT}`);
    const ts2 = await import("../ts2/build.js");
    await ts2.buildTs2Child("npm run build:child");
    console.log(`built ${ts2.TS2_CHILD_BUNDLE} and its snapshot ${ts2.TS2_CHILD_SNAPSHOT}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
