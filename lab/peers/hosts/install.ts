// A host (Codex, Claude Code, opencode, Qwen Code, Gemini CLI) is installed on its first use, never
// by `npm ci` (100-480 MB each): its exact version and lockfile are in lab/peers/hosts/<name>/, and
// its build copies them into build/hosts/<name> and runs `npm install --prefix` there, under the
// set-up's lock and bound like every other build (lab/peers/builds.ts, first-use.ts).
import { join } from "node:path";
import { BUILD_DIR, PROJECT_ROOT } from "../../paths.js";
import type { CachedBuild } from "../cached-build.js";
import { npmPackage, sdkLabel } from "../installed.js";
import type { SdkLabel } from "../../plan/peer.js";

/** where a host is installed */
export const hostDir = (name: string): string => join(BUILD_DIR, "hosts", name);
/** where its pins are */
export const hostPinsDir = (name: string): string => join(PROJECT_ROOT, "lab", "peers", "hosts", name);

/** The build of host `name` from npm package `pkg` (its package.json in node_modules proves it is there). */
export function hostBuild(name: string, pkg: string): CachedBuild {
  const pins = join("lab", "peers", "hosts", name);
  const out = join("build", "hosts", name);
  return {
    name: `host-${name}`,
    toolchain: ["npm", "--version"],
    inputs: [join(pins, "package.json"), join(pins, "package-lock.json")],
    outputs: [join(hostDir(name), "node_modules", pkg, "package.json")],
    steps: [
      { command: "mkdir", args: ["-p", out] },
      { command: "cp", args: [join(pins, "package.json"), join(pins, "package-lock.json"), out] },
      // install, not ci: opencode-ai and qwen-code list optional per-platform packages that the
      // registry does not serve, so their lockfiles lack them and `npm ci` refuses ("Missing: ...
      // from lock file"); install keeps every locked version. Scripts stay on: a host may pick its
      // platform's binary in a postinstall (opencode-ai)
      { command: "npm", args: ["install", "--prefix", out, "--no-audit", "--no-fund", "--loglevel=error"] },
    ],
    boundMs: 600_000,
  };
}

/** "<pkg> <version>", read from the installed package.json and checked against the pin. */
export const hostLabel = (name: string, pkg: string): SdkLabel =>
  sdkLabel(`${pkg} {}`, npmPackage(pkg, { dir: hostDir(name), pins: hostPinsDir(name) }));
