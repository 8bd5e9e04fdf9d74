// One owner for building a peer's driver into build/ (a Go binary, a Rust binary, a JVM jar, a
// venv): the build runs only when its inputs changed (a stamp holds their hash), within a bound,
// and reports one line with its time. A missing toolchain is a line too, never a stack trace;
// the peer's `unavailable()` then says the same thing (buildProblem).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { BUILD_DIR, PROJECT_ROOT } from "../paths.js";

export interface CachedBuild {
  /** the peer's build name, e.g. "go" or "rmcp": its stamp is build/<name>.stamp */
  name: string;
  /** the toolchain's command and a version call, e.g. ["go", "version"]: absent means "not installed" */
  toolchain: readonly string[];
  /** files or folders (relative to the project root) whose content decides whether to rebuild */
  inputs: readonly string[];
  /** what the build produces (absolute paths); missing outputs force a rebuild */
  outputs: readonly string[];
  /** the build's commands, run in order in `cwd` (relative to the project root) */
  steps: readonly { command: string; args: readonly string[]; cwd?: string; env?: Record<string, string> }[];
  /** bound for each step (first builds fetch from a registry) */
  boundMs?: number;
  /** after the steps, work in this process (e.g. jvm-cds's training sessions: cds.ts); bounds its own waits */
  finish?: () => Promise<void>;
}

const SKIP = new Set(["target", "node_modules", "__pycache__", ".gradle"]);

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((name) => !SKIP.has(name))
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

/** The hash of every input file's path and content, so a changed driver or lockfile rebuilds. */
export function inputsHash(build: Pick<CachedBuild, "inputs" | "toolchain">): string {
  const hash = createHash("sha256");
  hash.update(build.toolchain.join(" "));
  for (const input of build.inputs) {
    for (const file of filesUnder(join(PROJECT_ROOT, input))) {
      hash.update(relative(PROJECT_ROOT, file));
      hash.update(readFileSync(file));
    }
  }
  return hash.digest("hex");
}

const stampFile = (name: string) => join(BUILD_DIR, `${name}.stamp`);

/** The toolchain's one-line version, or undefined when it is not on PATH. */
export function toolchainVersion(toolchain: readonly string[]): string | undefined {
  const [command, ...args] = toolchain;
  if (!command) return undefined;
  const r = spawnSync(command, args, { encoding: "utf8", timeout: 30_000 });
  if (r.error || r.status !== 0) return undefined;
  // Maven colours its banner (-v) even in batch mode: keep the line plain
  return `${r.stdout}${r.stderr}`.replace(/\x1b\[[0-9;]*m/g, "").trim().split("\n")[0];
}

/** undefined when the build is current; else one line saying why the peer cannot run. Reads files only. */
export function buildProblem(build: CachedBuild): string | undefined {
  const missing = build.outputs.find((output) => !existsSync(output));
  if (missing !== undefined || !existsSync(stampFile(build.name))) {
    return `${build.name} is not built (${relative(PROJECT_ROOT, missing ?? stampFile(build.name))} missing): run \`npm run setup\` on a machine with ${build.toolchain[0]}`;
  }
  if (readFileSync(stampFile(build.name), "utf8").trim() !== inputsHash(build)) {
    return `${build.name}'s build is older than its sources: run \`npm run setup\``;
  }
  return undefined;
}

/** Builds when needed; returns the one line the set-up prints. Throws only when a step fails. */
export async function runCachedBuild(build: CachedBuild): Promise<string> {
  const started = process.hrtime.bigint();
  const seconds = () => (Number(process.hrtime.bigint() - started) / 1e9).toFixed(1);
  const version = toolchainVersion(build.toolchain);
  if (version === undefined) return `build ${build.name}: skipped, ${build.toolchain[0]} is not installed (the ${build.name} peer shows as unavailable)`;
  if (buildProblem(build) === undefined) return `build ${build.name}: cached, inputs unchanged (${seconds()} s)`;
  mkdirSync(BUILD_DIR, { recursive: true });
  for (const step of build.steps) {
    const r = spawnSync(step.command, [...step.args], {
      cwd: join(PROJECT_ROOT, step.cwd ?? "."),
      encoding: "utf8",
      timeout: build.boundMs ?? 600_000,
      env: { ...process.env, ...step.env },
      maxBuffer: 64 << 20,
    });
    if (r.status !== 0) {
      const why = r.error ? r.error.message : `exit ${r.status ?? r.signal}`;
      throw new Error(`build ${build.name}: ${[step.command, ...step.args].join(" ")} failed (${why}):\n${`${r.stderr}${r.stdout}`.slice(-3000)}`);
    }
  }
  try {
    await build.finish?.();
  } catch (error) {
    throw new Error(`build ${build.name}: failed after ${seconds()} s: ${(error as Error).message}`);
  }
  const missing = build.outputs.find((output) => !existsSync(output));
  if (missing !== undefined) throw new Error(`build ${build.name}: finished but ${relative(PROJECT_ROOT, missing)} is missing`);
  writeFileSync(stampFile(build.name), `${inputsHash(build)}\n`);
  return `build ${build.name}: built in ${seconds()} s with ${version}`;
}
