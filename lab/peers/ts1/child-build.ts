// The ts1 stdio child (lab/peers/ts1/child-server.ts) never transpiles TS at spawn: it is bundled
// and captured in a V8 startup snapshot (lab/peers/snapshot-child.ts), which halves its start-up
// (see `bench`). The set-up builds it; first use rebuilds it when missing, stale or made by another Node.
import { snapshotChild } from "../snapshot-child.js";

const CHILD = snapshotChild("child-server", "lab/peers/ts1/child-server.ts");

export const CHILD_BUNDLE = CHILD.bundle;
export const CHILD_SNAPSHOT = CHILD.snapshot;
export const CHILD_ARGS = CHILD.args;
export const childBuildStaleness = CHILD.staleness;
export const ensureChildBuilt = CHILD.ensure;
export const buildChild = CHILD.build;

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
