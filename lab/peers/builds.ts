// Every peer build the set-up runs (lab/setup.ts), in order. Adding a peer in another language:
// define its CachedBuild beside its driver and add it here.
import type { CachedBuild } from "./cached-build.js";
import { JVM_BUILD } from "./jvm/build.js";

export const PEER_BUILDS: CachedBuild[] = [JVM_BUILD];
