// The Go SDKs' release histories (issue 46; lab/peers/go/history.ts, lab/peers/mcp-go/history.ts): the module's
// releases as the Go module proxy lists them (`go list -m -versions`), the newest patch of each minor; each one
// built from a copy of the lab's driver (its own go.mod edited to require that release, `go mod tidy` through the
// proxy, `go build`) into build/history/<sdk>/<version>/, under the build lock, at most two at once. The shared
// GOCACHE and module cache make a rebuild cheap. A release the driver does not compile against is remembered
// with the compiler's first error line (not retried until the driver or the toolchain changes).
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { BUILD_DIR, PROJECT_ROOT } from "../paths.js";
import { compareReleases, everyFormRow, type HistorySource, type ReleaseList } from "../plan/history.js";
import type { ClientPeer } from "../plan/peer.js";
import { withBuildLock } from "./build-lock.js";
import { inputsHash, runForOutput, writeStamp } from "./cached-build.js";
import { hostedBinary } from "./host-driver.js";
import { cachedReleaseList, HISTORY_DIR } from "./history-list.js";

const BUILD_BOUND_MS = 300_000;
const LIST_BOUND_MS = 60_000;
export const GO_BUILDS_AT_ONCE = 2;

/** One SDK's Go build: the module, the driver folder it copies, and the build tags a release needs. */
export interface GoHistoryBuild {
  sdk: string;
  module: string;
  /** the driver's folder under the project (its *.go, go.mod, go.sum; links followed) */
  driverDir: string;
  /** the build tags a release needs (a per-release-range shim in the driver), none for the newest */
  tags(release: string): string[];
}

/** The newest patch of every minor, pre-releases left out, "v" dropped ("1.3.1"), oldest first. */
export function newestPatchPerMinor(versions: readonly string[]): string[] {
  const byMinor = new Map<string, string>();
  for (const v of versions.map((v) => v.replace(/^v/, "")).filter((v) => /^[0-9]+\.[0-9]+\.[0-9]+$/.test(v)).sort(compareReleases))
    byMinor.set(v.split(".").slice(0, 2).join("."), v);
  return [...byMinor.values()];
}

/** The module's releases the proxy lists (newest patch per minor), cached for a day under build/history/. */
export function goReleases(sdk: string, module: string, now = new Date()): ReleaseList {
  const proxy = process.env.GOPROXY ?? spawnSync("go", ["env", "GOPROXY"], { encoding: "utf8", timeout: 30_000 }).stdout?.trim() ?? "";
  return cachedReleaseList(`${sdk}`, `${proxy} ${module}`, () => {
    // outside any module (the project has none at its root), so `go list -m` asks the proxy
    const r = spawnSync("go", ["list", "-m", "-versions", module], { cwd: tmpdir(), encoding: "utf8", timeout: LIST_BOUND_MS, env: { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" } });
    const listed = r.status === 0 ? r.stdout.trim().split(/\s+/).slice(1) : [];
    if (listed.length === 0) return { problem: `no Go module proxy: go list -m -versions ${module} could not read ${proxy || "GOPROXY"} (${`${r.error?.message ?? r.stderr ?? ""}`.trim().split("\n")[0]?.slice(0, 120)}), and no list is cached under build/history/` };
    return newestPatchPerMinor(listed);
  }, now);
}

const dirOf = (b: GoHistoryBuild, release: string) => join(HISTORY_DIR, b.sdk, release);
export const goHistoryBinary = (b: GoHistoryBuild, release: string) => join(dirOf(b, release), "client");
const stampOf = (b: GoHistoryBuild, release: string) => join(dirOf(b, release), "lab-history.txt");
/** The driver's build inputs: its Go files and go.mod/go.sum (not the folder's TypeScript). */
const driverFiles = (b: GoHistoryBuild) => readdirSync(join(PROJECT_ROOT, b.driverDir)).filter((f) => f.endsWith(".go") || f === "go.mod" || f === "go.sum").sort();
const inputsNow = (b: GoHistoryBuild, release: string) =>
  `${inputsHash({ inputs: driverFiles(b).map((f) => `${b.driverDir}/${f}`), toolchain: ["go", "version"] })}-${b.tags(release).join(",") || "untagged"}`;

/** One go command in `cwd`, bounded; its output and whether it passed. */
const go = (args: readonly string[], cwd: string, flags: string) =>
  // GOTOOLCHAIN=local: no toolchain download; -buildvcs=false: the copy sits inside the project's git tree
  runForOutput("go", args, { cwd, env: { GOTOOLCHAIN: "local", GOFLAGS: `${flags} -buildvcs=false`.trim() }, boundMs: BUILD_BOUND_MS });

/** The compiler's first error line ("./main.go:151:70: unknown field …"), named by the driver's own path. */
export function firstGoError(output: string, driverDir: string): string {
  const lines = output.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#") && !l.startsWith("go: downloading"));
  const line = lines.find((l) => /^\.\/[^:]+\.go:\d+:\d+: /.test(l)) ?? lines[0] ?? "no output";
  return line.replace(/^\.\//, `${driverDir}/`).replaceAll(`${PROJECT_ROOT}/`, "").slice(0, 200);
}

async function build(b: GoHistoryBuild, release: string, hash: string): Promise<string | undefined> {
  const dir = dirOf(b, release);
  const src = join(dir, "src");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(src, { recursive: true });
  const from = join(PROJECT_ROOT, b.driverDir);
  // copyFileSync follows links: mcp-go's links to the go driver's files become files of the copy
  for (const f of driverFiles(b)) copyFileSync(join(from, f), join(src, f));
  // contract.go reads the plan's schema beside its binary: the set-up's one in build/
  symlinkSync(join(BUILD_DIR, "session-plan.schema.json"), join(dir, "session-plan.schema.json"));
  const tags = b.tags(release);
  const steps: [string[], string][] = [
    [["mod", "edit", `-require=${b.module}@v${release}`], ""],
    [["mod", "tidy"], ""],
    [["build", "-trimpath", ...(tags.length ? ["-tags", tags.join(",")] : []), "-o", goHistoryBinary(b, release), "."], "-mod=readonly"],
  ];
  let why: string | undefined;
  for (const [args, flags] of steps) {
    const run = await go(args, src, flags);
    if (run.ok) continue;
    why = args[0] === "build" ? `does not compile against the driver: ${firstGoError(run.output, b.driverDir)}` : `go ${args.slice(0, 2).join(" ")} failed: ${firstGoError(run.output, b.driverDir)}`;
    break;
  }
  if (!why && !existsSync(goHistoryBinary(b, release))) why = `built, but no ${relative(PROJECT_ROOT, goHistoryBinary(b, release))}`;
  writeStamp(stampOf(b, release), `${hash}${why ? ` ${why}` : ""}`);
  return why;
}

/** Why the release cannot run here (the compiler's first error line, remembered), or undefined once built. */
export async function installGoRelease(b: GoHistoryBuild, release: string): Promise<string | undefined> {
  const hash = inputsNow(b, release);
  const known = (): { why?: string } | undefined => {
    if (!existsSync(stampOf(b, release))) return undefined;
    const text = readFileSync(stampOf(b, release), "utf8").trim();
    if (!text.startsWith(`${hash} `) && text !== hash) return undefined;
    const why = text.slice(hash.length).trim();
    return why ? { why } : existsSync(goHistoryBinary(b, release)) ? {} : undefined;
  };
  const before = known();
  if (before) return before.why;
  return withBuildLock(`history-${b.sdk}-${release}`, async () => {
    const now = known();
    return now ? now.why : build(b, release, hash);
  });
}

/** A client peer on the release's binary: a process per session, or sessions of its --host mode (host.go). */
export function goHistoryClient(b: GoHistoryBuild, release: string, meaning: string): ClientPeer {
  const binary = goHistoryBinary(b, release);
  return {
    name: `${b.sdk}@${release}`,
    sdk: `${b.module} v${release}`,
    loops: ["sdk"],
    meaning,
    era: "2025-11-25",
    unavailable: () => (existsSync(binary) ? undefined : `no driver built at ${relative(PROJECT_ROOT, binary)}`),
    driver: hostedBinary(binary),
  };
}

/** A Go SDK's HistorySource: the parts both share (the proxy's list, the build, stdio only); every row from the first
 *  release listed unless the SDK says from which release each can arise (`behaviours`, as formBehaviours gives). */
export function goHistorySource(
  b: GoHistoryBuild,
  s: { title: string; driver: string; meaning: (release: string) => string; installNote: string; behaviours?: HistorySource["behaviours"] },
): HistorySource {
  return {
    sdk: b.sdk,
    title: s.title,
    package: b.module,
    which: `The newest patch of every minor of ${b.module} the Go module proxy lists (go list -m -versions; pre-releases left out)`,
    releases: () => goReleases(b.sdk, b.module),
    install: (release) => installGoRelease(b, release),
    // two go builds at once at the most: each compiles the SDK (the shared GOCACHE keeps a rebuild cheap)
    installsAtOnce: GO_BUILDS_AT_ONCE,
    client: (release) => goHistoryClient(b, release, s.meaning(release)),
    behaviours: s.behaviours ?? everyFormRow(),
    transports: ["stdio"],
    noTransport: `the history runs the ${s.driver} driver over its own stdin/stdout only`,
    installNote: s.installNote,
  };
}
