// The stdio child runs compiled JS from build/, so a spawn never pays for transpiling TS.
// `npm ci` builds it (prepare → build:child); this module rebuilds on first use when the build
// is missing or older than a lab source, with a bounded wait and a clear error.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
/** Works from lab/*.ts (tsx) and from build/lab/*.js alike. */
export const PROJECT_ROOT = basename(dirname(here)) === "build" ? resolve(here, "../..") : resolve(here, "..");
export const CHILD_SCRIPT = join(PROJECT_ROOT, "build", "lab", "child-server.js");
export const BUILD_BOUND_MS = 120_000;

/** Why the compiled child cannot be used as is, or undefined when it is up to date. */
export async function childBuildStaleness(): Promise<string | undefined> {
  if (!existsSync(CHILD_SCRIPT)) return `${CHILD_SCRIPT} is missing`;
  const built = (await stat(CHILD_SCRIPT)).mtimeMs;
  const labDir = join(PROJECT_ROOT, "lab");
  for (const name of await readdir(labDir)) {
    if (!name.endsWith(".ts")) continue;
    const source = join(labDir, name);
    if ((await stat(source)).mtimeMs > built) return `lab/${name} is newer than ${CHILD_SCRIPT}`;
  }
  return undefined;
}

let building: Promise<void> | undefined;

/**
 * Builds the child at most once per process; rejects with tsc's output if that fails. A failure
 * is kept for the rest of the process: tsc emits JS even on type errors (exit 2), and a retry
 * would then find a fresh build and quietly run code that does not type-check.
 */
export function ensureChildBuilt(): Promise<void> {
  building ??= (async () => {
    const reason = await childBuildStaleness();
    if (reason === undefined) return;
    await runBuild(reason);
    const still = await childBuildStaleness();
    if (still !== undefined) throw new Error(`building the stdio child did not help: ${still}`);
  })();
  return building;
}

function runBuild(reason: string): Promise<void> {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const child = spawn(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  return new Promise<void>((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`building the stdio child (${reason}) took longer than ${BUILD_BOUND_MS} ms; run npm run build:child`));
    }, BUILD_BOUND_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`could not start tsc to build the stdio child: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise();
      else reject(new Error(`building the stdio child (${reason}) failed (tsc exit ${code ?? signal}); run npm run build:child:\n${output.slice(-4000)}`));
    });
  });
}
