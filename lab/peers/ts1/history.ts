// The TypeScript SDK's 1.x release history (issue 46): one release per minor of @modelcontextprotocol/sdk (the
// newest patch the registry lists), each installed once into build/history/ts1/<version>/ by npm (its own
// dependencies, resolved at install), and the ts1 client driver run in this process on that release's Client,
// imported by file URL (lab/peers/ts1/history-client.ts says which export it uses from which release).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../paths.js";
import { compareReleases, type HistorySource, type ReleaseList } from "../../plan/history.js";
import { withBuildLock } from "../build-lock.js";
import { cachedReleaseList, HISTORY_DIR } from "../history-list.js";
import { runCommand, writeStamp } from "../cached-build.js";
import { npmPackage } from "../installed.js";
import { FIRST_WITH_ELICITATION, sdkDir, ts1HistoryClient } from "./history-client.js";

const PACKAGE = "@modelcontextprotocol/sdk";
const TS1_HISTORY_DIR = join(HISTORY_DIR, "ts1");
const BOUND_MS = 300_000;

const registry = () => process.env.npm_config_registry ?? "https://registry.npmjs.org/";

/** The newest patch of each 1.x minor, in order ("1.24.3" for 1.24); prereleases left out. */
export function newestPerMinor(versions: readonly string[]): string[] {
  const byMinor = new Map<string, string>();
  for (const v of versions.filter((v) => /^1\.\d+\.\d+$/.test(v)).sort(compareReleases)) byMinor.set(v.split(".").slice(0, 2).join("."), v);
  return [...byMinor.values()];
}

/** One release per 1.x minor; the list cached for a day (lab/peers/history-list.ts). */
export function ts1Releases(now = new Date()): ReleaseList {
  return cachedReleaseList("ts1", registry(), () => {
    const r = spawnSync("npm", ["view", PACKAGE, "versions", "--json", "--fetch-retries", "0", "--fetch-timeout", "15000"], { encoding: "utf8", timeout: 60_000 });
    let all: unknown;
    try {
      all = r.status === 0 ? JSON.parse(r.stdout) : undefined;
    } catch {
      all = undefined;
    }
    if (!Array.isArray(all)) return { problem: `no npm registry: npm view ${PACKAGE} versions could not reach ${registry()}, and no list is cached under build/history/` };
    return newestPerMinor(all.map(String));
  }, now);
}

/** The lab's own install, reused where it is the release (npm test stays fast). */
const LAB_SDK = npmPackage(PACKAGE, { dir: PROJECT_ROOT });

/** Where the release's node_modules/ is: the lab's own, or build/history/ts1/<version>/. */
export const historyPrefix = (version: string): string => (LAB_SDK().installed === version ? PROJECT_ROOT : join(TS1_HISTORY_DIR, version));

const stampOf = (prefix: string) => join(prefix, "lab-history.txt");

/** Why the release cannot run here, or undefined once it is installed (installed now if need be). */
export async function installTs1Release(version: string): Promise<string | undefined> {
  const prefix = historyPrefix(version);
  const current = () => prefix === PROJECT_ROOT || (existsSync(stampOf(prefix)) && readFileSync(stampOf(prefix), "utf8").trim() === version);
  if (current()) return undefined;
  // one install per release across processes (npm test and a history run at once): re-checked under the lock
  return withBuildLock(`history-ts1-${version}`, async () => {
    if (current()) return undefined;
    try {
      rmSync(prefix, { recursive: true, force: true });
      mkdirSync(prefix, { recursive: true });
      await runCommand(`${PACKAGE} history`, "npm", ["install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel", "error", "--prefix", prefix, `${PACKAGE}@${version}`], { boundMs: BOUND_MS });
      if (!existsSync(sdkDir(prefix))) return `installed, but no ${PACKAGE} under ${prefix}/node_modules`;
      writeStamp(stampOf(prefix), version);
      return undefined;
    } catch (error) {
      return `cannot install here: ${(error instanceof Error ? error.message : String(error)).split("\n").slice(1).join(" ").trim().slice(0, 200)}`;
    }
  });
}

const noElicitation = `no ElicitRequestSchema before ${FIRST_WITH_ELICITATION} (types.js)`;

/** `history --client ts1`. */
export const TS1_HISTORY: HistorySource = {
  sdk: "ts1",
  title: "@modelcontextprotocol/sdk 1.x (TypeScript SDK)",
  package: PACKAGE,
  which: "The newest patch of every 1.x minor the npm registry listed",
  releases: () => ts1Releases(),
  install: installTs1Release,
  client: (version) => ts1HistoryClient(version, historyPrefix(version)),
  behaviours: {
    nested: { from: FIRST_WITH_ELICITATION, why: noElicitation },
    samplingNested: {},
    rootsNested: {},
    ping: { from: FIRST_WITH_ELICITATION, why: noElicitation },
    cancel0: { from: FIRST_WITH_ELICITATION, why: `${noElicitation}: the scenario's request id 0 is a form` },
  },
  transports: ["stdio"],
  noTransport: "the history runs each release's Client in this process against the ts1 server's stdio child; no HTTP row yet",
  installNote: `Each by npm install --ignore-scripts into build/history/ts1/<version>/ (or the lab's own node_modules where it is the release), its dependencies resolved at install; run in the lab's process, the Client imported from that folder.`,
};

