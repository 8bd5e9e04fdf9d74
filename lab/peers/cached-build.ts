// One owner for building a peer's driver into build/ (a Go binary, a Rust binary, a JVM jar, an
// install apart): the build runs only when its inputs changed (a stamp holds their hash), within a
// bound. The stamp is removed before a build and written last, so a build killed half-way leaves
// nothing that looks built. A missing toolchain is a line too, never a stack trace; the peer's
// `unavailable()` says the same thing (buildProblem), and builds it first when the command
// builds on first use (first-use.ts).
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { BUILD_DIR, PROJECT_ROOT } from "../paths.js";
import { afterFirstUse } from "./first-use.js";

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

export const stampFile = (name: string) => join(BUILD_DIR, `${name}.stamp`);

/** The toolchain's one-line version, or undefined when it is not on PATH. */
export function toolchainVersion(toolchain: readonly string[]): string | undefined {
  const [command, ...args] = toolchain;
  if (!command) return undefined;
  const r = spawnSync(command, args, { encoding: "utf8", timeout: 30_000 });
  if (r.error || r.status !== 0) return undefined;
  // Maven colours its banner (-v) even in batch mode: keep the line plain
  return `${r.stdout}${r.stderr}`.replace(/\x1b\[[0-9;]*m/g, "").trim().split("\n")[0];
}

/** undefined when the build is current; else one line saying why not. Reads files only, builds nothing. */
export function buildStaleness(build: CachedBuild): string | undefined {
  const missing = build.outputs.find((output) => !existsSync(output));
  if (missing !== undefined || !existsSync(stampFile(build.name))) {
    return `${build.name} is not built (${relative(PROJECT_ROOT, missing ?? stampFile(build.name))} missing): run \`npm run setup\` on a machine with ${build.toolchain[0]}`;
  }
  if (readFileSync(stampFile(build.name), "utf8").trim() !== inputsHash(build)) {
    return `${build.name}'s build is older than its sources: run \`npm run setup\``;
  }
  return undefined;
}

/** undefined when the peer's build is current (built first, when the command builds on first use); else why not. */
export const buildProblem = (build: CachedBuild): string | undefined => afterFirstUse(build.name, () => buildStaleness(build));

/** One command as a child process within `boundMs`, stopped by its own handle then: whether it passed, and the
 *  last `keep` characters of its stdout and stderr (a bound that ran out is said first). */
export function runForOutput(command: string, args: readonly string[], options: { cwd?: string; env?: Record<string, string>; boundMs?: number; keep?: number } = {}): Promise<{ ok: boolean; output: string; ended: string }> {
  const child = spawn(command, [...args], { cwd: options.cwd ?? PROJECT_ROOT, env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = options.keep ?? 400_000;
  const add = (chunk: Buffer) => (output = (output + chunk.toString("utf8")).slice(-keep));
  child.stdout.on("data", add);
  child.stderr.on("data", add);
  const bound = options.boundMs ?? 600_000;
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), bound);
    child.once("error", (error) => (clearTimeout(timer), resolve({ ok: false, output: `${command}: ${error.message}`, ended: error.message })));
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      const ended = signal === "SIGKILL" ? `no end within ${bound / 1000} s` : `exit ${code ?? signal}`;
      resolve({ ok: code === 0, output: signal === "SIGKILL" ? `${ended}\n${output}` : output, ended });
    });
  });
}

/** One command as a child process within `boundMs`; rejects, naming `what`, with the end of its output. */
export async function runCommand(what: string, command: string, args: readonly string[], options: { cwd?: string; env?: Record<string, string>; boundMs?: number } = {}): Promise<void> {
  const run = await runForOutput(command, args, { ...options, keep: 3000 });
  if (!run.ok) throw new Error(`${what}: ${[command, ...args].join(" ")} failed (${run.ended}):\n${run.output}`);
}

/** Writes a stamp under a temporary name and renames it into place: it is whole or absent. */
export function writeStamp(file: string, text: string): void {
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${text}\n`);
  renameSync(partial, file);
}

export type BuildOutcome = { skipped: string } | { built: string };

/** Builds (the caller has checked it is needed), each step reported to `progress`. Throws when a step fails. */
export async function buildCached(build: CachedBuild, progress: (line: string) => void = () => undefined): Promise<BuildOutcome> {
  const version = toolchainVersion(build.toolchain);
  if (version === undefined) return { skipped: `${build.toolchain[0]} is not installed (the ${build.name} peer shows as unavailable)` };
  mkdirSync(BUILD_DIR, { recursive: true });
  // nothing may look built while the outputs are half made
  rmSync(stampFile(build.name), { force: true });
  const hash = inputsHash(build);
  for (const [i, step] of build.steps.entries()) {
    progress(`step ${i + 1}/${build.steps.length + (build.finish ? 1 : 0)}: ${[step.command, ...step.args].join(" ").slice(0, 100)}`);
    await runCommand(`build ${build.name}`, step.command, step.args, { cwd: join(PROJECT_ROOT, step.cwd ?? "."), ...(step.env && { env: step.env }), ...(build.boundMs && { boundMs: build.boundMs }) });
  }
  if (build.finish) {
    progress(`step ${build.steps.length + 1}/${build.steps.length + 1}: finishing in this process`);
    await build.finish();
  }
  const missing = build.outputs.find((output) => !existsSync(output));
  if (missing !== undefined) throw new Error(`build ${build.name}: finished but ${relative(PROJECT_ROOT, missing)} is missing`);
  writeStamp(stampFile(build.name), hash);
  return { built: `with ${version}` };
}

/** Builds when needed; returns one line (no lock, no parallelism: lab/peers/build-run.ts adds those). */
export async function runCachedBuild(build: CachedBuild): Promise<string> {
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  if (buildStaleness(build) === undefined) return `build ${build.name}: cached, inputs unchanged (${seconds()} s)`;
  const outcome = await buildCached(build);
  return "skipped" in outcome ? `build ${build.name}: skipped, ${outcome.skipped}` : `build ${build.name}: built in ${seconds()} s ${outcome.built}`;
}
