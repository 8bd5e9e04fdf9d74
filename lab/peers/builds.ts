// Every peer build the set-up runs (lab/setup.ts), in order. Adding a peer in another language:
// define its CachedBuild beside its driver and add it here. jvm-cds trains on the jars and the
// ts1 child, so it follows jvm, and the set-up's ts1 step (lab/setup.ts).
import type { CachedBuild } from "./cached-build.js";
import { GO_BUILD } from "./go/index.js";
import { JVM_BUILD } from "./jvm/build.js";
import { JVM_CDS_BUILD } from "./jvm/cds.js";
import { RMCP_BUILD } from "./rmcp/index.js";
import { LANGCHAIN_BUILD } from "./langchain/index.js";
import { MASTRA_BUILD } from "./mastra/index.js";

export const PEER_BUILDS: CachedBuild[] = [GO_BUILD, RMCP_BUILD, JVM_BUILD, JVM_CDS_BUILD, MASTRA_BUILD, LANGCHAIN_BUILD];
