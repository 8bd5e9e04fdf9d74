// A Rust SDK's release history (issue 46), shared by the Rust histories (rmcp, rust-mcp-sdk): the crate's releases
// from the crates.io sparse index (the newest patch of every minor, yanked and pre-releases left out), and the lab's
// driver built against each by one `cargo build --release` per release (with the driver's cargo features the release
// needs: CargoHistorySpec.features, a shim for an older API): build/history/<sdk>/<version>/ holds the
// driver's Cargo.toml pinned to the release (its [[bin]] path the lab's own src/main.rs) and a copy of its Cargo.lock;
// one CARGO_TARGET_DIR (build/history/<sdk>/target) for every release, so tokio, serde and the like compile once; the
// binary is copied out to the release's folder under one build lock (the target's binary is shared). A release the
// driver does not compile against is remembered with the compiler's first error line (not retried until inputs change).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { PROJECT_ROOT } from "../paths.js";
import { compareReleases, type ReleaseList } from "../plan/history.js";
import { withBuildLock } from "./build-lock.js";
import { inputsHash, runForOutput, writeStamp } from "./cached-build.js";
import { cachedReleaseList, HISTORY_DIR } from "./history-list.js";

/** One build, tokio and the SDK's dependency era included on a first build: minutes on 2 cores. */
export const CARGO_BUILD_BOUND_MS = 900_000;
/** Bumped when the way a release is built changes: every stamp is then stale. */
const RECIPE = "cargo-history 2: manifest pinned, bin path absolute, shared target, offline first";

export interface CargoHistorySpec {
  /** the history's name: build/history/<sdk>/ */
  sdk: string;
  /** the crate as crates.io names it */
  crate: string;
  /** the driver's folder, relative to the project root (Cargo.toml, Cargo.lock, src/main.rs) */
  driver: string;
  /** the driver's binary name ([[bin]] name) */
  binary: string;
  /** more inputs than the driver's folder (e.g. a source another driver's main.rs includes) */
  inputs?: readonly string[];
  /** the driver's cargo features a release needs (a per-release-range shim in the driver), none for the newest */
  features?(release: string): string[];
  /** dependencies a release builds with as they resolved on its day, where a later release of one no longer
   *  builds beside it (cargo update -p <crate> --precise <version>), none for the newest */
  precise?(release: string): readonly { crate: string; version: string }[];
}

/** crates.io's sparse index, or the one the lab is told to use. */
const indexUrl = () => (process.env.LAB_CRATES_INDEX ?? "https://index.crates.io").replace(/\/$/, "");

/** The sparse index's path of a crate (https://doc.rust-lang.org/cargo/reference/registry-index.html#index-files). */
export function indexPath(crate: string): string {
  const name = crate.toLowerCase();
  if (name.length <= 2) return `${name.length}/${name}`;
  if (name.length === 3) return `3/${name[0]}/${name}`;
  return `${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`;
}

/** From the index file's lines: the newest patch of every minor, yanked and pre-releases left out, newest last. */
export function newestPatchPerMinor(indexLines: string): string[] {
  const newest = new Map<string, string>();
  for (const line of indexLines.split("\n").filter((l) => l.trim())) {
    const entry = JSON.parse(line) as { vers: string; yanked: boolean };
    if (entry.yanked || !/^[0-9]+\.[0-9]+\.[0-9]+$/.test(entry.vers)) continue;
    const minor = entry.vers.split(".").slice(0, 2).join(".");
    const was = newest.get(minor);
    if (was === undefined || compareReleases(entry.vers, was) > 0) newest.set(minor, entry.vers);
  }
  return [...newest.values()].sort(compareReleases);
}

/** The releases, cached for a day under build/history/ (history-list.ts). */
export function crateReleases(spec: CargoHistorySpec, now = new Date()): ReleaseList {
  const url = `${indexUrl()}/${indexPath(spec.crate)}`;
  return cachedReleaseList(spec.sdk, url, () => {
    const r = spawnSync("curl", ["-fsSL", "--max-time", "20", url], { encoding: "utf8", timeout: 30_000 });
    const versions = r.status === 0 ? newestPatchPerMinor(r.stdout) : [];
    return versions.length > 0 ? versions : { problem: `no crates.io index: ${url} could not be read, and no list is cached under build/history/` };
  }, now);
}

/** The compiler's first error line (cargo's --message-format short: "path:l:c: error[E…]: …"), paths made relative. */
export function firstCargoError(output: string): string {
  const lines = output.replace(/\x1b\[[0-9;]*m/g, "").split("\n").map((l) => l.trim());
  // a resolution failure's "error:" line names no cause; the line that does says which feature the release lacks
  const unresolved = lines.find((l) => /^package `.+` depends on `.+` with features? .+ but `.+` does not have/.test(l));
  const line = lines.find((l) => /^\S+\.rs:\d+:\d+: error/.test(l)) ?? unresolved ?? lines.find((l) => /^error/.test(l)) ?? lines.find((l) => l) ?? "no output";
  return tidy(line).slice(0, 200);
}

/** A path in the project relative to it, one in cargo's registry as the crate's own ("rmcp-0.1.5/src/…"). */
const tidy = (text: string) => text.replaceAll(`${PROJECT_ROOT}/`, "").replace(/\S*\/registry\/src\/[^/\s]+\//g, "");

/** The driver's Cargo.toml pinned to `version` of `crate`, its [[bin]] path the driver's own main.rs. */
export function pinnedManifest(manifest: string, crate: string, version: string, mainRs: string): string {
  const dep = new RegExp(`^(${crate.replace(/-/g, "\\-")}\\s*=\\s*\\{\\s*version\\s*=\\s*)"=[^"]+"`, "m");
  if (!dep.test(manifest)) throw new Error(`cargo history: no exact ${crate} pin in the driver's Cargo.toml`);
  return manifest.replace(dep, `$1"=${version}"`).replace(/^path\s*=\s*"src\/main\.rs"/m, `path = ${JSON.stringify(mainRs)}`);
}

/** One cargo run within the bound: its whole output (bounded) and whether it passed. */
async function cargo(args: readonly string[], env: Record<string, string>): Promise<{ ok: boolean; output: string }> {
  const run = await runForOutput("cargo", args, { env, boundMs: CARGO_BUILD_BOUND_MS });
  // a bound that ran out reads as cargo's own first error line would
  return run.ended.startsWith("no end") ? { ok: false, output: `error: ${run.output}` } : run;
}

export interface CargoHistory {
  releases(now?: Date): ReleaseList;
  /** why the release cannot run here (the compiler's first error line, remembered), or undefined once its binary is built */
  install(version: string): Promise<string | undefined>;
  /** the release's binary (build/history/<sdk>/<version>/<binary>) */
  binaryOf(version: string): string;
  /** the shared CARGO_TARGET_DIR */
  targetDir: string;
}

export function cargoHistory(spec: CargoHistorySpec): CargoHistory {
  const root = join(HISTORY_DIR, spec.sdk);
  const targetDir = join(root, "target");
  const dirOf = (version: string) => join(root, version);
  const binaryOf = (version: string) => join(dirOf(version), spec.binary);
  const stampOf = (version: string) => join(dirOf(version), "lab-history.txt");
  const inputs = { inputs: [`${spec.driver}/Cargo.toml`, `${spec.driver}/Cargo.lock`, `${spec.driver}/src`, ...(spec.inputs ?? [])], toolchain: ["cargo", "--version"] };
  const featuresOf = (version: string) => spec.features?.(version) ?? [];
  const preciseOf = (version: string) => spec.precise?.(version) ?? [];
  // the features and pins are inputs: a release moved in or out of a shim's range is built again
  const inputsNow = (version: string) =>
    createHash("sha256").update(RECIPE).update(inputsHash(inputs)).update(featuresOf(version).join(",")).update(preciseOf(version).map((p) => `${p.crate}@${p.version}`).join(",")).digest("hex");

  async function build(version: string, hash: string): Promise<string | undefined> {
    const dir = dirOf(version);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const driver = join(PROJECT_ROOT, spec.driver);
    writeFileSync(join(dir, "Cargo.toml"), pinnedManifest(readFileSync(join(driver, "Cargo.toml"), "utf8"), spec.crate, version, join(driver, "src", "main.rs")));
    // the driver's lock as the start: cargo moves only what the release's requirements need
    copyFileSync(join(driver, "Cargo.lock"), join(dir, "Cargo.lock"));
    const env = { CARGO_TARGET_DIR: targetDir };
    // offline first (~/.cargo/registry holds a release once fetched); online only when something is not there yet
    const offlineFirst = async (args: readonly string[]) => {
      const run = await cargo([...args, "--offline"], env);
      return !run.ok && /offline|failed to download|no matching package|not been downloaded|failed to select a version|index/i.test(run.output) ? cargo(args, env) : run;
    };
    for (const pin of preciseOf(version)) {
      const pinned = await offlineFirst(["update", "--manifest-path", join(dir, "Cargo.toml"), "-p", pin.crate, "--precise", pin.version]);
      if (!pinned.ok) return remember(version, hash, `${pin.crate} ${pin.version} cannot be pinned: ${firstCargoError(pinned.output)}`);
    }
    const features = featuresOf(version);
    const args = ["build", "--release", "--message-format", "short", "--manifest-path", join(dir, "Cargo.toml"), ...(features.length ? ["--features", features.join(",")] : [])];
    const run = await offlineFirst(args);
    const built = join(targetDir, "release", spec.binary);
    let why: string | undefined = run.ok ? undefined : `does not compile against the driver: ${firstCargoError(run.output)}`;
    if (!why) {
      if (existsSync(built)) copyFileSync(built, binaryOf(version));
      else why = `built, but no ${relative(PROJECT_ROOT, built)}`;
    }
    return remember(version, hash, why);
  }

  function remember(version: string, hash: string, why: string | undefined): string | undefined {
    writeStamp(stampOf(version), `${hash}${why ? ` ${why}` : ""}`);
    return why;
  }

  async function install(version: string): Promise<string | undefined> {
    const hash = inputsNow(version);
    const known = (): { why?: string } | undefined => {
      if (!existsSync(stampOf(version))) return undefined;
      const text = readFileSync(stampOf(version), "utf8").trim();
      if (!text.startsWith(hash)) return undefined;
      const why = tidy(text.slice(hash.length).trim());
      return why ? { why } : existsSync(binaryOf(version)) ? {} : undefined;
    };
    const before = known();
    if (before) return before.why;
    // one lock for the shared target dir: its release/<binary> is every release's, until copied out
    return withBuildLock(`history-${spec.sdk}-target`, async () => {
      const now = known();
      return now ? now.why : build(version, hash);
    });
  }

  return { releases: (now) => crateReleases(spec, now), install, binaryOf, targetDir };
}
