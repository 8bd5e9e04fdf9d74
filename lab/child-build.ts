// The stdio child never transpiles TS at spawn. It is bundled into one CommonJS file and then
// captured in a V8 startup snapshot: the SDK, zod and ajv are already initialised when a child
// starts, which halves its start-up time (see README, benchmarks). `npm ci` builds it
// (prepare → build:child); this module rebuilds on first use when the build is missing, older
// than a lab source, or was made by another Node, with a bounded wait and a clear error.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILD_BOUND_MS, runBuildStep } from "./build-step.js";

const here = dirname(fileURLToPath(import.meta.url));
export const PROJECT_ROOT = resolve(here, "..");
export const CHILD_BUNDLE = join(PROJECT_ROOT, "build", "child-server.cjs");
export const CHILD_SNAPSHOT = join(PROJECT_ROOT, "build", "child-server.blob");
/** The Node that made the snapshot: a blob only loads in the same Node binary. */
const CHILD_STAMP = join(PROJECT_ROOT, "build", "child-server.node");
/** How a child is started: argv[1] is a name, as for a script, so faults follow from argv[2]. */
export const CHILD_ARGS: readonly string[] = ["--snapshot-blob", CHILD_SNAPSHOT, "child-server"];
export { BUILD_BOUND_MS };

/** Why the built child cannot be used as is, or undefined when it is up to date. */
export async function childBuildStaleness(): Promise<string | undefined> {
  for (const file of [CHILD_BUNDLE, CHILD_SNAPSHOT, CHILD_STAMP]) if (!existsSync(file)) return `${file} is missing`;
  const madeBy = readFileSync(CHILD_STAMP, "utf8").trim();
  if (madeBy !== process.version) return `the snapshot was made by Node ${madeBy}, this is ${process.version}`;
  const built = Math.min((await stat(CHILD_BUNDLE)).mtimeMs, (await stat(CHILD_SNAPSHOT)).mtimeMs);
  const labDir = join(PROJECT_ROOT, "lab");
  for (const name of await readdir(labDir)) {
    if (!name.endsWith(".ts")) continue;
    if ((await stat(join(labDir, name))).mtimeMs > built) return `lab/${name} is newer than the built child`;
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
  await build({
    entryPoints: [join(PROJECT_ROOT, "lab", "child-server.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    outfile: CHILD_BUNDLE + temp,
    logLevel: "warning",
  });
  await runBuildStep(process.execPath, ["--snapshot-blob", CHILD_SNAPSHOT + temp, "--build-snapshot", CHILD_BUNDLE + temp], reason);
  writeFileSync(CHILD_STAMP + temp, `${process.version}\n`);
  for (const file of [CHILD_BUNDLE, CHILD_SNAPSHOT, CHILD_STAMP]) renameSync(file + temp, file);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await buildChild("npm run build:child");
    console.log(`built ${CHILD_BUNDLE} and its snapshot ${CHILD_SNAPSHOT}`);
    // The TypeScript SDK v2 peer's child (lab/peers/ts2/child.ts), loaded only when building.
    const ts2 = await import("./peers/ts2/build.js");
    await ts2.buildTs2Child("npm run build:child");
    console.log(`built ${ts2.TS2_CHILD_BUNDLE} and its snapshot ${ts2.TS2_CHILD_SNAPSHOT}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
