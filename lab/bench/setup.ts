// The set-up's figures (issue 43): `setup` with nothing changed, what a first use adds to a build
// (the child that checks and builds, run for a build that is current: nothing working is removed),
// and uv against pip making the same hash-pinned venv (py1's requirements) in a scratch folder,
// fresh (empty caches) and cached, interleaved in one run so load falls on both alike.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../paths.js";
import { findBuild } from "../peers/builds.js";
import { BUILD_RUN } from "../peers/first-use.js";
import { PY1_ENV } from "../peers/python/envs.js";
import { basePython } from "../peers/python/setup.js";
import { ensureUv, makeVenv } from "../peers/python/uv.js";

export const SETUP_GOAL_MS = 5_000;
export const FIRST_USE_GOAL_MS = 2_000;
const TSX = join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs");

function timed(args: string[]): number {
  const started = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: PROJECT_ROOT, stdio: "ignore", timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status ?? r.signal}`);
  return performance.now() - started;
}

/** `setup` when nothing changed, and the first-use child for a current build (go, else py1): the slower of 3 each. */
export async function benchSetupCached(): Promise<{ setupMs: number; firstUseMs: number; build: string }> {
  const build = (await findBuild("go")?.staleness()) === undefined ? "go" : PY1_ENV.name;
  const setup: number[] = [];
  const firstUse: number[] = [];
  for (let i = 0; i < 3; i++) {
    setup.push(timed([TSX, "lab/run.ts", "setup"]));
    firstUse.push(timed(["--import", "tsx", BUILD_RUN, "--first-use", build]));
  }
  return { setupMs: Math.round(Math.max(...setup)), firstUseMs: Math.round(Math.max(...firstUse)), build };
}

export interface VenvToolBench {
  fresh: { uvMs: number; pipMs: number };
  cached: { uvMs: number; pipMs: number };
}

/** py1's venv made by each tool in a scratch folder: fresh (each tool's cache empty) and cached (its own cache, warm). */
export async function benchVenvTools(): Promise<VenvToolBench | string> {
  const python = basePython();
  if (!python) return "no Python >= 3.10";
  const uv = await ensureUv(python).catch((error: Error) => error.message.split("\n")[0]!);
  if (!uv.startsWith("/")) return `uv could not be installed: ${uv}`;
  const dir = mkdtempSync(join(tmpdir(), "lab-venv-bench-"));
  /** `cache`: an empty one of its own (fresh); undefined: the tool's usual cache, warmed first (cached) */
  const once = async (tool: "uv" | "pip", cache?: string): Promise<number> => {
    const venv = join(dir, `venv-${tool}`);
    rmSync(venv, { recursive: true, force: true });
    const started = performance.now();
    await makeVenv(tool, python, venv, PY1_ENV.requirements, uv, cache === undefined ? {} : { [tool === "uv" ? "UV_CACHE_DIR" : "PIP_CACHE_DIR"]: cache });
    return performance.now() - started;
  };
  try {
    const fresh = { pipMs: await once("pip", join(dir, "pip-cache")), uvMs: await once("uv", join(dir, "uv-cache")) };
    await once("pip", undefined); // warms each tool's own cache
    await once("uv", undefined);
    const cached = { pipMs: await once("pip", undefined), uvMs: await once("uv", undefined) };
    const r = (t: { uvMs: number; pipMs: number }) => ({ uvMs: Math.round(t.uvMs), pipMs: Math.round(t.pipMs) });
    return { fresh: r(fresh), cached: r(cached) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Report = (text: string, figure: string, goal: string, met: boolean) => void;
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The set-up's three figures, each with its goal. */
export async function benchSetup(report: Report): Promise<void> {
  const cached = await benchSetupCached();
  report(`setup with nothing changed, the slowest of 3: ${sec(cached.setupMs)}`, "setup, nothing changed", "< 5 s", cached.setupMs < SETUP_GOAL_MS);
  report(`first use, what it adds to the build (the child that checks ${cached.build}, current here), the slowest of 3: ${sec(cached.firstUseMs)}`, "first use", "its build + < 2 s", cached.firstUseMs < FIRST_USE_GOAL_MS);
  const tools = await benchVenvTools();
  if (typeof tools === "string") return console.log(`uv vs pip: not measured (${tools})`);
  const ratio = (t: { uvMs: number; pipMs: number }) => `pip ${sec(t.pipMs)} vs uv ${sec(t.uvMs)}: uv ${(t.pipMs / t.uvMs).toFixed(1)}x faster`;
  report(
    `py1's venv (${PY1_ENV.requirements.slice(PROJECT_ROOT.length + 1)}, --require-hashes), fresh caches: ${ratio(tools.fresh)}; cached: ${ratio(tools.cached)} (the set-up uses uv)`,
    "uv vs pip",
    "uv faster, fresh and cached",
    tools.fresh.uvMs < tools.fresh.pipMs && tools.cached.uvMs < tools.cached.pipMs,
  );
}
