// Resolves a user's Python requirement set for CPython 3.11 as pip would install it, without
// installing anything: a throwaway venv (no pip of its own, so it is made in a moment), a pinned
// pip run from its wheel (pip-resolve.requirements.txt; the interpreter's bundled pip fetches it),
// `install --dry-run --ignore-installed --report`, keeping each file's sha256 the report gives (`stack` installs
// the set with them). An outcome is cached under build/stack/ by the set's text and the index it asked, for a
// day (the index changes; a cached answer says when it was resolved). A failure to reach the index is never cached.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILD_DIR, LAB_DIR } from "../paths.js";
import type { ResolvedPackage, StackOutcome, StackRefusal } from "../plan/python-stack.js";

export const STACK_CACHE_DIR = join(BUILD_DIR, "stack");
/** how long pip may take (crewai beside google-adk backtracks for about a minute on this machine) */
export const RESOLVE_BOUND_MS = 300_000;
const CACHE_FOR_MS = 24 * 3600_000;

/** PEP 503's normal form of a distribution name. */
export const normalName = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, "-");

/** A requirement as the index names it: NAME, [extras], a version specifier; no path, URL or option. */
const REQUIREMENT = /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?(\[[A-Za-z0-9._,-]+\])?([<>=!~]=?=?[A-Za-z0-9.*+!,<>=~-]*)?$/;

/** undefined when every requirement has the shape above; else the first that does not. */
export function badRequirement(requirements: readonly string[]): string | undefined {
  return requirements.find((r) => !REQUIREMENT.test(r));
}

/** A CPython 3.11 and the pip wheel it bundles, or why there is none (one line). */
export function python311(): { python: string; pipWheel: string } | string {
  const probe = [
    "import sys, os, glob, platform, ensurepip",
    "ok = sys.version_info[:2] == (3, 11) and platform.python_implementation() == 'CPython'",
    "w = sorted(glob.glob(os.path.join(os.path.dirname(ensurepip.__file__), '_bundled', 'pip-*.whl')))",
    "print(sys.executable if ok and w else '')",
    "print(w[-1] if w else '')",
  ].join("\n");
  for (const candidate of [process.env.LAB_PYTHON311, "python3.11", "python3"]) {
    if (!candidate) continue;
    const r = spawnSync(candidate, ["-c", probe], { encoding: "utf8", timeout: 30_000 });
    const [python, pipWheel] = r.status === 0 ? r.stdout.split("\n") : [];
    if (python && pipWheel) return { python, pipWheel };
  }
  return "no CPython 3.11 with ensurepip's pip found (python3.11, python3; or set LAB_PYTHON311)";
}

/** The pinned pip (pip-resolve.requirements.txt): its wheel's file name and sha256. */
const PINNED_PIP = join(LAB_DIR, "peers", "pip-resolve.requirements.txt");
function pinnedPip(): { file: string; sha256: string } {
  const text = readFileSync(PINNED_PIP, "utf8");
  const version = text.match(/^pip==(\S+)/m)?.[1];
  const sha256 = text.match(/--hash=sha256:([0-9a-f]{64})/)?.[1];
  if (!version || !sha256) throw new Error(`${PINNED_PIP} names no pip==VERSION with a sha256`);
  return { file: `pip-${version}-py3-none-any.whl`, sha256 };
}
const sha256Of = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/**
 * The pinned pip's wheel under build/stack/, fetched once (hash-checked by pip and again here, then
 * renamed into place, so two processes at once cannot leave half a file). Without it (no index, a
 * failed fetch), the bundled pip: the resolution that follows says what is wrong with the index.
 */
function resolverPip(python: string, bundled: string, env: NodeJS.ProcessEnv): string {
  const { file, sha256 } = pinnedPip();
  const wheel = join(STACK_CACHE_DIR, file);
  if (existsSync(wheel) && sha256Of(wheel) === sha256) return wheel;
  mkdirSync(STACK_CACHE_DIR, { recursive: true });
  const dir = mkdtempSync(join(STACK_CACHE_DIR, "pip-"));
  try {
    const args = [join(bundled, "pip"), "download", "--no-deps", "--only-binary=:all:", "--require-hashes", "--retries", "1", "--timeout", "20", "--disable-pip-version-check", "--quiet", "-d", dir, "-r", PINNED_PIP];
    const r = spawnSync(python, args, { encoding: "utf8", timeout: 120_000, killSignal: "SIGKILL", env });
    const got = join(dir, file);
    if (r.status !== 0 || !existsSync(got) || sha256Of(got) !== sha256) return bundled;
    renameSync(got, wheel);
    return wheel;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The index pip will ask, as far as the environment says (part of the cache's key). */
const indexOf = (env: NodeJS.ProcessEnv) => [env.PIP_INDEX_URL ?? "", env.PIP_EXTRA_INDEX_URL ?? "", env.PIP_FIND_LINKS ?? ""].join(" ");

/** Where a set's outcome is cached: by its text and the index it asked. */
export const stackCacheFile = (requirements: readonly string[], env: NodeJS.ProcessEnv = process.env): string =>
  join(STACK_CACHE_DIR, `${createHash("sha256").update(JSON.stringify({ requirements, index: indexOf(env), format: 2 })).digest("hex").slice(0, 32)}.json`);

export interface CachedOutcome {
  outcome: StackOutcome;
  at: string;
}

/** The set's cached outcome if it is younger than a day. */
export function cachedOutcome(file: string, now: number): StackOutcome | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const entry = JSON.parse(readFileSync(file, "utf8")) as CachedOutcome;
    return now - Date.parse(entry.at) < CACHE_FOR_MS ? entry.outcome : undefined;
  } catch {
    return undefined; // a torn or foreign file: resolve again
  }
}

/** pip's report: what it would install. */
interface PipReport {
  pip_version: string;
  environment: { python_full_version: string };
  install: { metadata: { name: string; version: string }; download_info?: { archive_info?: { hashes?: { sha256?: string }; hash?: string } } }[];
}

/** The one line a failed pip run comes down to, from its output. */
export function refusalOf(requirements: string[], coloured: string): StackRefusal {
  const output = coloured.replace(/\x1b\[[0-9;]*m/g, ""); // pip colours its errors when FORCE_COLOR is set
  const lines = output.split("\n").map((l) => l.trim());
  const offline = output.match(/Failed to establish a new connection: [^')]*|Temporary failure in name resolution|Network is unreachable|Name or service not known|Read timed out|ConnectTimeoutError/);
  if (offline) return { kind: "no-network", requirements, line: `the package index cannot be reached (pip: ${offline[0].replace(/\s*\[Errno -?\d+\]\s*/, " ")})` };
  const cannot = lines.find((l) => /^ERROR: Cannot install .* because these package versions have conflicting dependencies\.$/.test(l));
  if (cannot) {
    const start = lines.indexOf("The conflict is caused by:");
    const causes = start < 0 ? [] : lines.slice(start + 1, lines.indexOf("", start + 1) > 0 ? lines.indexOf("", start + 1) : undefined).filter(Boolean);
    const head = cannot.replace(/^ERROR: /, "").replace(/ because these package versions have conflicting dependencies\.$/, "");
    return { kind: "conflict", requirements, line: `${head}: ${causes.length > 0 ? causes.join("; ") : "conflicting dependencies"}` };
  }
  const missing = lines.find((l) => l.startsWith("ERROR: Could not find a version that satisfies the requirement "));
  if (missing) {
    const m = missing.match(/requirement (\S+) \(from versions: (.*)\)$/);
    const versions = m?.[2] === "none" ? "no release of it for CPython 3.11 on this platform" : "no release that matches";
    return { kind: "unknown-package", requirements, line: `${m?.[1] ?? "a requirement"}: ${versions} on the package index` };
  }
  const last = [...lines].reverse().find((l) => l.startsWith("ERROR:")) ?? lines.filter(Boolean).at(-1) ?? "pip failed without a message";
  return { kind: "refused", requirements, line: last.replace(/^ERROR: /, "") };
}

/**
 * Resolves the set (or answers from the cache). Never throws for the user's input or the index:
 * every failure is a StackRefusal with one line. Only what the index said is cached.
 */
export function resolvePythonStack(requirements: string[], env: NodeJS.ProcessEnv = process.env, now = Date.now()): { outcome: StackOutcome; cached: boolean } {
  const file = stackCacheFile(requirements, env);
  const hit = cachedOutcome(file, now);
  if (hit) return { outcome: hit, cached: true };
  const outcome = resolveNow(requirements, env, now);
  // only what the index said is kept: not a failure to reach it, not a bound or a missing Python
  if (outcome.kind === "resolved" || outcome.kind === "conflict" || outcome.kind === "unknown-package") {
    mkdirSync(STACK_CACHE_DIR, { recursive: true });
    writeFileSync(file, `${JSON.stringify({ outcome, at: new Date(now).toISOString() } satisfies CachedOutcome, null, 1)}\n`);
  }
  return { outcome, cached: false };
}

function resolveNow(requirements: string[], env: NodeJS.ProcessEnv, now: number): StackOutcome {
  const py = python311();
  if (typeof py === "string") return { kind: "refused", requirements, line: py };
  const dir = mkdtempSync(join(tmpdir(), "lab-stack-"));
  try {
    const venv = join(dir, "venv");
    const made = spawnSync(py.python, ["-m", "venv", "--without-pip", venv], { encoding: "utf8", timeout: 60_000 });
    if (made.status !== 0) return { kind: "refused", requirements, line: `could not make a venv with ${py.python} (${made.error?.message ?? `exit ${made.status}`})` };
    const report = join(dir, "report.json");
    // --retries 1: with 0, pip drops the connection error and says only "from versions: none"
    const pip = resolverPip(py.python, py.pipWheel, env);
    const args = [join(pip, "pip"), "install", "--dry-run", "--ignore-installed", "--retries", "1", "--timeout", "20", "--no-input", "--disable-pip-version-check", "--report", report, "--", ...requirements];
    const r = spawnSync(join(venv, "bin", "python"), args, { encoding: "utf8", timeout: RESOLVE_BOUND_MS, killSignal: "SIGKILL", env, maxBuffer: 64 << 20 });
    if (r.error || r.signal) return { kind: "refused", requirements, line: `pip did not finish within ${RESOLVE_BOUND_MS / 1000} s (${r.error?.message ?? r.signal})` };
    if (r.status !== 0 || !existsSync(report)) return refusalOf(requirements, `${r.stdout}\n${r.stderr}`);
    const parsed = JSON.parse(readFileSync(report, "utf8")) as PipReport;
    const sha256 = (i: PipReport["install"][number]) => i.download_info?.archive_info?.hashes?.sha256 ?? i.download_info?.archive_info?.hash?.match(/^sha256=([0-9a-f]{64})$/)?.[1];
    const packages: ResolvedPackage[] = parsed.install
      .map((i) => ({ name: normalName(i.metadata.name), version: i.metadata.version, ...(sha256(i) && { sha256: sha256(i) }) }))
      .sort((a, b) => a.name.localeCompare(b.name));
    return { kind: "resolved", requirements, python: parsed.environment.python_full_version, pip: parsed.pip_version, resolvedAt: new Date(now).toISOString(), packages };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
