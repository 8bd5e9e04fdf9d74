// The newest release each registry serves today of a peer's package, asked of the registry itself
// (its JSON or index, as its own client reads it) and cached in build/ with the day it was asked:
// offline, the cache answers and says from which day. Only stable releases count: a pin is compared
// with what `pip install X`, `npm install X`, `go get X@latest`, `cargo add X` or Maven's <release>
// would give a user today.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BUILD_DIR, PROJECT_ROOT } from "../paths.js";
import type { PackageRegistry } from "../plan/peer.js";

export const LATEST_CACHE = join(BUILD_DIR, "latest-versions.json");
/** one request's bound: a registry that does not answer in it is offline for this refresh */
const REQUEST_BOUND_MS = 20_000;
const AT_ONCE = 6;

/** One package on one registry, as the cache keys it. */
export interface RegistryPackage {
  registry: PackageRegistry;
  package: string;
}
export const packageKey = (p: RegistryPackage): string => `${p.registry} ${p.package}`;

export interface LatestCache {
  /** the UTC day the registries were asked (YYYY-MM-DD) */
  fetchedOn: string;
  /** packageKey -> newest stable version */
  newest: Record<string, string>;
}

/** What a refresh gives: the cache as it now stands, and one line when a registry could not be asked. */
export interface Latest extends LatestCache {
  offline: string | undefined;
}

/** Splits a version into its release numbers and whether it is a pre-release (1.2.0rc1, 2.0.0-beta.1, v0.3.0-pre). */
function parts(version: string): { numbers: number[]; pre: boolean } {
  const bare = version.trim().replace(/^[v=^~]+/, "");
  const release = bare.match(/^\d+(\.\d+)*/)?.[0] ?? "";
  const rest = bare.slice(release.length);
  return { numbers: release.split(".").filter(Boolean).map(Number), pre: /[a-z]/i.test(rest.replace(/^\+.*/, "")) };
}

/** <0, 0, >0 as a is older than, the same as, newer than b; a pre-release is older than its release. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.numbers.length, y.numbers.length); i++) {
    const d = (x.numbers[i] ?? 0) - (y.numbers[i] ?? 0);
    if (d !== 0) return d;
  }
  return Number(y.pre) - Number(x.pre);
}

/** the newest stable version of a list, or undefined when it has none */
export const newestStable = (versions: readonly string[]): string | undefined =>
  versions.filter((v) => parts(v).numbers.length > 0 && !parts(v).pre).sort(compareVersions).at(-1);

async function get(url: string): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_BOUND_MS), headers: { "user-agent": "mcp-reentrancy-lab (newest-release check)" } });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.text();
}

// the Go proxy's case encoding: an upper-case letter is "!" and its lower case
const goPath = (module: string) => module.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
// crates.io's sparse index: 1/a, 2/ab, 3/a/abc, ab/cd/abcd…
function cratePath(crate: string): string {
  const name = crate.toLowerCase();
  if (name.length <= 2) return `${name.length}/${name}`;
  if (name.length === 3) return `3/${name[0]}/${name}`;
  return `${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`;
}

/** The newest stable release `p.registry` serves of `p.package` now; throws when it cannot say. */
export async function askRegistry(p: RegistryPackage): Promise<string> {
  const found = await (async (): Promise<string | undefined> => {
    switch (p.registry) {
      case "pypi":
        // info.version is the newest release that is not a pre-release (what pip installs)
        return (JSON.parse(await get(`https://pypi.org/pypi/${p.package}/json`)) as { info: { version: string } }).info.version;
      case "npm":
        // the `latest` dist-tag: what `npm install X` gives
        return (JSON.parse(await get(`https://registry.npmjs.org/${p.package.replace("/", "%2f")}/latest`)) as { version: string }).version;
      case "go":
        // @latest is not served for every module: @v/list is what `go list -m X@latest` falls back to
        return newestStable((await get(`https://proxy.golang.org/${goPath(p.package)}/@v/list`)).split("\n"));
      case "crates": {
        const lines = (await get(`https://index.crates.io/${cratePath(p.package)}`)).split("\n").filter(Boolean);
        const releases = lines.map((l) => JSON.parse(l) as { vers: string; yanked: boolean }).filter((r) => !r.yanked);
        return newestStable(releases.map((r) => r.vers));
      }
      case "maven": {
        const [group, artifact] = p.package.split(":");
        const xml = await get(`https://repo1.maven.org/maven2/${group!.replace(/\./g, "/")}/${artifact}/maven-metadata.xml`);
        // <release> may be a milestone: the newest of the listed versions without a qualifier
        return newestStable([...xml.matchAll(/<version>([^<]+)<\/version>/g)].map((m) => m[1]!));
      }
    }
  })();
  if (found === undefined) throw new Error(`${packageKey(p)}: the registry lists no stable release`);
  return found;
}

export function readLatestCache(file = LATEST_CACHE): LatestCache | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const cache = JSON.parse(readFileSync(file, "utf8")) as LatestCache;
    return typeof cache.fetchedOn === "string" && typeof cache.newest === "object" ? cache : undefined;
  } catch {
    return undefined;
  }
}

export const today = (): string => new Date().toISOString().slice(0, 10);

/** Asks each registry for each package (a few at once, each bounded) and writes what answered into
 *  the cache; what did not answer keeps its cached version and is said in `offline`. A cache from
 *  today is used as it is unless `force`. */
export async function refreshLatest(packages: readonly RegistryPackage[], options: { force?: boolean; file?: string; ask?: typeof askRegistry } = {}): Promise<Latest> {
  const file = options.file ?? LATEST_CACHE;
  const cached = readLatestCache(file);
  const wanted = [...new Map(packages.map((p) => [packageKey(p), p])).values()];
  if (!options.force && cached?.fetchedOn === today() && wanted.every((p) => packageKey(p) in cached.newest)) return { ...cached, offline: undefined };
  const ask = options.ask ?? askRegistry;
  const newest: Record<string, string> = { ...cached?.newest };
  const failed: string[] = [];
  const queue = [...wanted];
  const worker = async () => {
    for (let p = queue.shift(); p; p = queue.shift()) {
      try {
        newest[packageKey(p)] = await ask(p);
      } catch (error) {
        failed.push(`${packageKey(p)} (${(error as Error).message.split("\n")[0]})`);
      }
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  if (failed.length === wanted.length && wanted.length > 0) {
    const from = cached ? `the cache of ${cached.fetchedOn}` : "no cache";
    return { fetchedOn: cached?.fetchedOn ?? "never", newest: cached?.newest ?? {}, offline: `offline: no registry answered (${failed[0]}); newest from ${from}` };
  }
  const fresh: LatestCache = { fetchedOn: today(), newest: Object.fromEntries(Object.entries(newest).sort(([a], [b]) => a.localeCompare(b))) };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(fresh, null, 2)}\n`);
  return { ...fresh, offline: failed.length > 0 ? `not answered, cached value kept: ${failed.join("; ")}` : undefined };
}

/** The newest release of each package when the pins were last reviewed (`peers --latest --review` writes it, and
 *  the file is committed): a lag behind a release published after it is "new since review", said and not failed on
 *  under CI, so a release that comes out between a review and a CI run is a line, not a red build. */
export const REVIEWED_FILE = join(PROJECT_ROOT, "lab", "peers", "reviewed-newest.json");

export function readReviewed(file = REVIEWED_FILE): LatestCache | undefined {
  return readLatestCache(file);
}

export function writeReviewed(found: LatestCache, file = REVIEWED_FILE): void {
  writeFileSync(file, `${JSON.stringify({ fetchedOn: found.fetchedOn, newest: found.newest }, null, 2)}\n`);
}
