// One owner for the TypeScript stdio children's build: esbuild bundles an entry into one CommonJS
// file, Node captures it in a V8 startup snapshot (the SDK is initialised before a child starts),
// and a stamp records the Node that made it and every bundled source (from esbuild's metafile),
// so staleness covers exactly what the child contains and a moved file can never break the check.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { BUILD_DIR, PROJECT_ROOT } from "../paths.js";
import { runBuildStep } from "./build-step.js";

interface Stamp {
  node: string;
  /** project-relative paths of the bundled sources outside node_modules */
  inputs: string[];
}

export interface SnapshotChild {
  readonly bundle: string;
  readonly snapshot: string;
  /** How a child is started: argv[1] is a name, as for a script, so its own flags follow. */
  readonly args: readonly string[];
  staleness(): Promise<string | undefined>;
  /** Builds at most once per process; rejects with the builder's output if that fails. */
  ensure(): Promise<void>;
  build(reason: string): Promise<void>;
}

export function snapshotChild(name: string, entry: string): SnapshotChild {
  const bundle = join(BUILD_DIR, `${name}.cjs`);
  const snapshot = join(BUILD_DIR, `${name}.blob`);
  const stampFile = join(BUILD_DIR, `${name}.stamp.json`);
  const files = [bundle, snapshot, stampFile];

  async function staleness(): Promise<string | undefined> {
    for (const file of files) if (!existsSync(file)) return `${relative(PROJECT_ROOT, file)} is missing`;
    let stamp: Stamp;
    try {
      stamp = JSON.parse(readFileSync(stampFile, "utf8")) as Stamp;
    } catch {
      return `${relative(PROJECT_ROOT, stampFile)} is unreadable`;
    }
    if (stamp.node !== process.version) return `the snapshot was made by Node ${stamp.node}, this is ${process.version}`;
    const built = Math.min((await stat(bundle)).mtimeMs, (await stat(snapshot)).mtimeMs);
    for (const input of stamp.inputs) {
      const file = join(PROJECT_ROOT, input);
      if (!existsSync(file)) return `${input} (bundled into ${name}) is gone`;
      if ((await stat(file)).mtimeMs > built) return `${input} is newer than the built ${name}`;
    }
    return undefined;
  }

  async function build(reason: string): Promise<void> {
    const { build: esbuild } = await import("esbuild");
    // Temporary names renamed into place: a child started meanwhile never loads half a blob.
    const temp = `.${process.pid}.tmp`;
    const result = await esbuild({
      entryPoints: [join(PROJECT_ROOT, entry)],
      metafile: true,
      absWorkingDir: PROJECT_ROOT,
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      outfile: bundle + temp,
      logLevel: "warning",
    });
    await runBuildStep(process.execPath, ["--snapshot-blob", snapshot + temp, "--build-snapshot", bundle + temp], reason);
    const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes("node_modules/"));
    const stamp: Stamp = { node: process.version, inputs: inputs.map((input) => relative(PROJECT_ROOT, join(PROJECT_ROOT, input))) };
    writeFileSync(stampFile + temp, `${JSON.stringify(stamp, null, 2)}\n`);
    for (const file of files) renameSync(file + temp, file);
  }

  let building: Promise<void> | undefined;
  function ensure(): Promise<void> {
    building ??= (async () => {
      const reason = await staleness();
      if (reason === undefined) return;
      await build(reason);
      const still = await staleness();
      if (still !== undefined) throw new Error(`building ${name} did not help: ${still}`);
    })();
    return building;
  }

  return { bundle, snapshot, args: ["--snapshot-blob", snapshot, name], staleness, ensure, build };
}
