// An npm package's release history (issue 46), the part the TypeScript SDK's histories share (ts1: the 1.x
// @modelcontextprotocol/sdk, ts2: the 2.x @modelcontextprotocol/client): the registry's list read by `npm view`
// (cached for a day, lab/peers/history-list.ts), each release installed once into build/history/<sdk>/<version>/
// by npm under the build lock (or the lab's own node_modules where it is the release), and the check of a
// driver's API table against what a loaded release exports.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../paths.js";
import { atLeast, compareReleases, type ReleaseList } from "../plan/history.js";
import type { ClientPeer, InProcessClientDriver } from "../plan/peer.js";
import { withBuildLock } from "./build-lock.js";
import { cachedReleaseList, HISTORY_DIR } from "./history-list.js";
import { runCommand, writeStamp } from "./cached-build.js";
import { npmPackage } from "./installed.js";

const BOUND_MS = 300_000;

const registry = () => process.env.npm_config_registry ?? "https://registry.npmjs.org/";

/** The newest patch of each `major`.x minor, in order ("1.24.3" for 1.24); prereleases left out. */
export function newestPerMinor(versions: readonly string[], major = 1): string[] {
  const byMinor = new Map<string, string>();
  const release = new RegExp(`^${major}\\.\\d+\\.\\d+$`);
  for (const v of versions.filter((v) => release.test(v)).sort(compareReleases)) byMinor.set(v.split(".").slice(0, 2).join("."), v);
  return [...byMinor.values()];
}

export interface NpmHistory {
  /** the releases `pick` keeps of the registry's list, or why it could not be read */
  releases(now?: Date): ReleaseList;
  /** where the release's node_modules/ is: the lab's own, or build/history/<sdk>/<version>/ */
  prefix(version: string): string;
  /** why the release cannot run here, or undefined once it is installed (installed now if need be) */
  install(version: string): Promise<string | undefined>;
  /** the package's folder under a prefix */
  packageDir(prefix: string): string;
}

/** `sdk`'s history of the npm package `name`: `pick` chooses the releases from everything the registry lists. */
export function npmHistory(sdk: string, name: string, pick: (all: string[]) => string[]): NpmHistory {
  const dir = join(HISTORY_DIR, sdk);
  // the lab's own install, reused where it is the release (npm test stays fast)
  const lab = npmPackage(name, { dir: PROJECT_ROOT });
  const prefix = (version: string) => (lab().installed === version ? PROJECT_ROOT : join(dir, version));
  const packageDir = (at: string) => join(at, "node_modules", ...name.split("/"));
  const stampOf = (at: string) => join(at, "lab-history.txt");
  return {
    prefix,
    packageDir,
    releases: (now = new Date()) =>
      cachedReleaseList(sdk, registry(), () => {
        const r = spawnSync("npm", ["view", name, "versions", "--json", "--fetch-retries", "0", "--fetch-timeout", "15000"], { encoding: "utf8", timeout: 60_000 });
        let all: unknown;
        try {
          all = r.status === 0 ? JSON.parse(r.stdout) : undefined;
        } catch {
          all = undefined;
        }
        if (!Array.isArray(all)) return { problem: `no npm registry: npm view ${name} versions could not reach ${registry()}, and no list is cached under build/history/` };
        return pick(all.map(String));
      }, now),
    install: async (version) => {
      const at = prefix(version);
      const current = () => at === PROJECT_ROOT || (existsSync(stampOf(at)) && readFileSync(stampOf(at), "utf8").trim() === version);
      if (current()) return undefined;
      // one install per release across processes (npm test and a history run at once): re-checked under the lock
      return withBuildLock(`history-${sdk}-${version}`, async () => {
        if (current()) return undefined;
        try {
          rmSync(at, { recursive: true, force: true });
          mkdirSync(at, { recursive: true });
          await runCommand(`${name} history`, "npm", ["install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel", "error", "--prefix", at, `${name}@${version}`], { boundMs: BOUND_MS });
          if (!existsSync(packageDir(at))) return `installed, but no ${name} under ${at}/node_modules`;
          writeStamp(stampOf(at), version);
          return undefined;
        } catch (error) {
          return `cannot install here: ${(error instanceof Error ? error.message : String(error)).split("\n").slice(1).join(" ").trim().slice(0, 200)}`;
        }
      });
    },
  };
}

/** A driver's API table: which export it uses from which release, and where it was read. */
export type ApiTable<K extends string> = readonly { from: string; name: K; why: string }[];

export const apiMismatch = (pkg: string, version: string, name: string, from: string, present: boolean): string =>
  `the API table disagrees with ${pkg} ${version}: ${name} (table: from ${from}; installed: ${present ? "present" : "absent"})`;

/** The table's exports out of `found` (what the release exports): an export the table promises and the release
 *  lacks, or one the release has before the table says, is an error naming both, not a silently skipped row. */
export function checkedApi<K extends string>(pkg: string, version: string, found: Record<string, unknown>, table: ApiTable<K>): Partial<Record<K, unknown>> {
  const api: Partial<Record<K, unknown>> = {};
  for (const row of table) {
    const present = found[row.name] !== undefined;
    if (present !== atLeast(version, row.from)) throw new Error(apiMismatch(pkg, version, row.name, row.from, present));
    if (present) api[row.name] = found[row.name];
  }
  return api;
}

/** A client peer on one installed release (`<sdk>@<version>`), run in this process: `run` loads the release's API
 *  from `packageDir` (checked against its table) and runs the lab's driver on it. */
export function releaseClient(o: { sdk: string; pkg: string; version: string; packageDir: string; meaning: string; run: InProcessClientDriver["run"] }): ClientPeer {
  return {
    name: `${o.sdk}@${o.version}`,
    sdk: `${o.pkg} ${o.version}`,
    loops: ["sdk"],
    meaning: o.meaning,
    era: "2025-11-25",
    unavailable: () => (existsSync(join(o.packageDir, "package.json")) ? undefined : `no ${o.version} install at ${o.packageDir}`),
    driver: { kind: "in-process", run: o.run },
  };
}
