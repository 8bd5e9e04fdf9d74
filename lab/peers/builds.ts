// Every build the lab has, as one list the set-up and first use read (lab/peers/build-run.ts): the
// TypeScript stdio children, every Python venv of lab/peers/python/envs.ts, and the drivers in other
// languages. Adding a peer in another language: define its CachedBuild beside its driver and add it
// here; a Python peer is one entry in envs.ts and needs nothing here.
import { relative } from "node:path";
import { PROJECT_ROOT } from "../paths.js";
import { buildCached, buildStaleness, type BuildOutcome, type CachedBuild } from "./cached-build.js";
import { AI_SDK_BUILD, AI_SDK_DRIVER_BUILD } from "./ai-sdk/index.js";
import { GO_BUILD } from "./go/index.js";
import { hostBuild } from "./hosts/install.js";
import { HOST_SPECS } from "./hosts/specs.js";
import { JVM_BUILD } from "./jvm/build.js";
import { JVM_CDS_BUILD } from "./jvm/cds.js";
import { LANGCHAIN_BUILD } from "./langchain/index.js";
import { MASTRA_BUILD, MASTRA_DRIVER_BUILD } from "./mastra/index.js";
import { MCP_GO_BUILD } from "./mcp-go/index.js";
import { OPENAI_AGENTS_BUILD, OPENAI_AGENTS_DRIVER_BUILD } from "./openai-agents/index.js";
import { NODE22_BUILD } from "./node22/index.js";
import { PY1_ENV, PYTHON_ENVS, type PythonEnv } from "./python/envs.js";
import { buildPythonEnv, envStaleness } from "./python/setup.js";
import { RMCP_BUILD } from "./rmcp/index.js";
import { RUST_MCP_SDK_BUILD } from "./rust-mcp-sdk/index.js";
import { STRANDS_TS_BUILD, STRANDS_TS_DRIVER_BUILD } from "./strands-ts/index.js";

/** What competes with what: never two builds of one kind at once (two cargo builds share a target
 *  dir and the cores), except venvs (each its own folder, mostly waiting on the index). */
export type BuildKind = "node" | "venv" | "go" | "cargo" | "maven" | "java" | "npm";
/** a rough first figure per kind (seconds on a 2-core machine), until build/ holds a real one */
export const ROUGH_SECONDS: Record<BuildKind, number> = { node: 5, venv: 15, go: 40, cargo: 120, maven: 120, java: 30, npm: 30 };

export interface PeerBuild {
  name: string;
  kind: BuildKind;
  /** builds that must be current first (jvm-cds trains on the jars and the ts1 child) */
  after: readonly string[];
  /** where it goes, for the line that ends it */
  where: string;
  /** undefined when current; else why not. Builds nothing. */
  staleness(): Promise<string | undefined>;
  /** the build itself (the caller holds its lock and has checked it is needed) */
  build(progress: (line: string) => void): Promise<BuildOutcome>;
}

const rel = (path: string) => relative(PROJECT_ROOT, path);
const KINDS: Record<string, BuildKind> = { cargo: "cargo", mvn: "maven", go: "go", java: "java", npm: "npm" };

/** A CachedBuild as the set-up runs it (tests make tiny ones). */
export function cached(build: CachedBuild, after: readonly string[] = []): PeerBuild {
  return {
    name: build.name,
    kind: KINDS[build.toolchain[0] ?? ""] ?? "node",
    after,
    where: rel(build.outputs[0] ?? ""),
    staleness: async () => buildStaleness(build),
    build: (progress) => buildCached(build, progress),
  };
}

function venv(env: PythonEnv): PeerBuild {
  return { name: env.name, kind: "venv", after: [], where: `${rel(env.dir)}/`, staleness: async () => envStaleness(env), build: (progress) => buildPythonEnv(env, progress) };
}

/** a TypeScript stdio child (lab/peers/snapshot-child.ts: it renames its files into place itself) */
type Child = { staleness(): Promise<string | undefined>; build(reason: string): Promise<void>; snapshot: string };

function child(name: string, where: string, load: () => Promise<Child>): PeerBuild {
  return {
    name,
    kind: "node",
    after: [],
    where,
    staleness: async () => (await load()).staleness(),
    build: async (progress) => {
      const c = await load();
      progress("step 1/1: esbuild bundle and V8 snapshot");
      await c.build((await c.staleness()) ?? "asked for");
      return { built: `with esbuild and Node ${process.version}` };
    },
  };
}

// loaded on use: their modules load esbuild's types and the children's entries
const TS1_CHILD = child("ts1-child", "build/child-server.blob", async () => {
  const c = await import("./ts1/child-build.js");
  return { staleness: c.childBuildStaleness, build: c.buildChild, snapshot: c.CHILD_SNAPSHOT };
});
const TS2_CHILD = child("ts2-child", "build/ts2-server.blob", async () => {
  const c = await import("./ts2/build.js");
  return { staleness: c.ts2ChildStaleness, build: c.buildTs2Child, snapshot: c.TS2_CHILD_SNAPSHOT };
});

/** Every build, in the order the set-up starts them when nothing else decides. */
export const ALL_BUILDS: readonly PeerBuild[] = [
  TS1_CHILD,
  TS2_CHILD,
  ...PYTHON_ENVS.map(venv),
  cached(GO_BUILD),
  cached(MCP_GO_BUILD),
  cached(RMCP_BUILD),
  cached(RUST_MCP_SDK_BUILD),
  cached(JVM_BUILD),
  cached(JVM_CDS_BUILD, [JVM_BUILD.name, TS1_CHILD.name]),
  cached(NODE22_BUILD),
  cached(MASTRA_BUILD),
  cached(AI_SDK_BUILD),
  cached(OPENAI_AGENTS_BUILD),
  // each bundles its framework from the install apart
  cached(MASTRA_DRIVER_BUILD, [MASTRA_BUILD.name]),
  cached(AI_SDK_DRIVER_BUILD, [AI_SDK_BUILD.name]),
  cached(OPENAI_AGENTS_DRIVER_BUILD, [OPENAI_AGENTS_BUILD.name]),
  cached(LANGCHAIN_BUILD),
  cached(STRANDS_TS_BUILD),
  cached(STRANDS_TS_DRIVER_BUILD, [STRANDS_TS_BUILD.name]),
  // the hosts (100-480 MB each): installed on first use of `hosts`, or by `setup -- host-<name>`
  ...HOST_SPECS.map((spec) => cached(hostBuild(spec.name, spec.pkg))),
];

/** What `npm ci` builds: the README's first run (py1 against the ts1 stdio server) and the other TypeScript child. */
export const FIRST_RUN_BUILDS: readonly string[] = [TS1_CHILD.name, TS2_CHILD.name, PY1_ENV.name];

export const findBuild = (name: string): PeerBuild | undefined => ALL_BUILDS.find((b) => b.name === name);
