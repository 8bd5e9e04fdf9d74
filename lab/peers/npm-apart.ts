// A JavaScript framework installed apart from the root (its own package.json and lockfile under
// lab/peers/<name>/), because installing it in the root would make `npm ci` warn (an engines range
// Node 20 does not meet) or fail (a peer range the root's pins do not meet). The set-up runs its
// `npm ci` through the cached-build owner, output kept, only when the lockfile changed.
import { join } from "node:path";
import { PROJECT_ROOT } from "../paths.js";
import type { CachedBuild } from "./cached-build.js";

/** The folder a framework is installed apart in: its package.json, lockfile and node_modules. */
export const npmApartDir = (name: string) => join(PROJECT_ROOT, "lab", "peers", name);

/** `probe`: a package of the install whose package.json proves it is there. */
export function npmApartBuild(name: string, probe: string): CachedBuild {
  const dir = join("lab", "peers", name);
  return {
    name: `${name}-npm`,
    toolchain: ["npm", "--version"],
    inputs: [join(dir, "package.json"), join(dir, "package-lock.json")],
    outputs: [join(PROJECT_ROOT, dir, "node_modules", probe, "package.json")],
    // --loglevel=error: the engines warnings are the reason it is apart; the set-up prints one line
    steps: [{ command: "npm", args: ["ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd: dir }],
    boundMs: 600_000,
  };
}
