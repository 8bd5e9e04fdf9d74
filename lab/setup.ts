// The project's set-up (`npm ci` runs it as `prepare`; `npm run setup` again at any time): builds
// every peer into build/ (the stdio children, the Python venvs, the drivers in other languages),
// each only when its inputs changed, one line per build with its time. A missing toolchain is one
// line and the peer shows as unavailable in `peers`; `peers --strict` (CI) then fails.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILD_DIR } from "./paths.js";
import { runCachedBuild } from "./peers/cached-build.js";
import { PEER_BUILDS } from "./peers/builds.js";
import { driverSchemas } from "./plan/driver-schema.js";

const since = (started: bigint) => (Number(process.hrtime.bigint() - started) / 1e9).toFixed(1);

async function step(name: string, run: () => Promise<string> | string): Promise<boolean> {
  const started = process.hrtime.bigint();
  try {
    const line = await run();
    console.log(line.startsWith("build ") ? line : `build ${name}: ${line} (${since(started)} s)`);
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(message.startsWith("build ") ? message : `build ${name}: failed after ${since(started)} s: ${message}`);
    return false;
  }
}

export async function setup(): Promise<number> {
  mkdirSync(BUILD_DIR, { recursive: true });
  let ok = await step("driver schemas", () => {
    for (const [file, schema] of Object.entries(driverSchemas())) writeFileSync(join(BUILD_DIR, file), `${JSON.stringify(schema, null, 2)}\n`);
    return "written to build/";
  });
  // The TypeScript stdio children: each says whether it was current or built, and why.
  const child = (stale: () => Promise<string | undefined>, ensure: () => Promise<void>) => async () => {
    const why = await stale();
    await ensure();
    return why === undefined ? "current" : `built (${why})`;
  };
  const ts1 = await import("./peers/ts1/child-build.js");
  const ts2 = await import("./peers/ts2/build.js");
  ok = (await step("ts1 child", child(ts1.childBuildStaleness, ts1.ensureChildBuilt))) && ok;
  ok = (await step("ts2 child", child(ts2.ts2ChildStaleness, ts2.ensureTs2ChildBuilt))) && ok;
  // every Python environment of lab/peers/python/envs.ts, one step each
  const py = await import("./peers/python/setup.js");
  for (const env of py.PYTHON_ENVS) ok = (await step(`${env.name} venv`, () => py.setupPythonEnv(env))) && ok;
  for (const build of PEER_BUILDS) ok = (await step(build.name, () => runCachedBuild(build))) && ok;
  return ok ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // A failed build is reported and the rest still runs. Under `npm ci` (prepare) it does not fail the
  // install: the peer shows as unavailable and `peers --strict` fails CI; with --strict it exits 1 here.
  const ok = (await setup()) === 0;
  if (!ok && process.argv.includes("--strict")) process.exitCode = 1;
}
