// The v2 stdio child (lab/peers/ts2/child.ts), bundled and snapshotted like the ts1 one
// (lab/peers/snapshot-child.ts); the set-up builds it, and first use rebuilds it when stale.
import { snapshotChild } from "../snapshot-child.js";

const TS2_CHILD = snapshotChild("ts2-server", "lab/peers/ts2/child.ts");

export const TS2_CHILD_BUNDLE = TS2_CHILD.bundle;
export const TS2_CHILD_SNAPSHOT = TS2_CHILD.snapshot;
export const TS2_CHILD_ARGS = TS2_CHILD.args;
/** The same child without the snapshot: the plain bundle (for comparison). */
export const TS2_CHILD_BUNDLE_ARGS: readonly string[] = [TS2_CHILD.bundle];
export const ts2ChildStaleness = TS2_CHILD.staleness;
export const ensureTs2ChildBuilt = TS2_CHILD.ensure;
export const buildTs2Child = TS2_CHILD.build;
