// The set-up: the driver schemas into build/, then builds (lab/peers/builds.ts, run by
// lab/peers/build-run.ts: locked, several at once where they do not compete). `npm ci` (prepare,
// lab/setup.ts) builds only the README's first run; `setup` builds every peer or those named; every
// other peer builds on its first use. A missing toolchain is one line and the peer shows as
// unavailable in `peers`; a failed build is one line, and with --strict the exit is 1.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILD_DIR } from "../paths.js";
import { runBuilds, withPrerequisites, type Log } from "../peers/build-run.js";
import { ALL_BUILDS, findBuild, FIRST_RUN_BUILDS } from "../peers/builds.js";
import { buildOnFirstUse } from "../peers/first-use.js";
import { CLIENT_PEERS, SERVER_PEERS } from "../peers/registry.js";
import { driverSchemas } from "../plan/driver-schema.js";
import { read, UsageError, type Parsed } from "./args.js";

export type SetupWhat = "first-run" | "all" | readonly string[];

/** Builds `what`: the README's first run, every build, or the named builds and peers. True when none failed. */
export async function setup(what: SetupWhat, log: Log = console.log): Promise<boolean> {
  mkdirSync(BUILD_DIR, { recursive: true });
  for (const [file, schema] of Object.entries(driverSchemas())) writeFileSync(join(BUILD_DIR, file), `${JSON.stringify(schema, null, 2)}\n`);
  if (what === "all") return runBuilds(ALL_BUILDS, log);
  if (what === "first-run") return runBuilds(withPrerequisites(FIRST_RUN_BUILDS), log);
  const peers = [...CLIENT_PEERS, ...SERVER_PEERS];
  const unknown = what.find((name) => !findBuild(name) && !peers.some((p) => p.name === name));
  if (unknown !== undefined) throw new UsageError(`unknown build or peer '${unknown}'. Builds: ${ALL_BUILDS.map((b) => b.name).join(", ")}; peers: see \`peers\``);
  let ok = await runBuilds(withPrerequisites(what.filter((name) => findBuild(name))), log);
  // a peer named: its own check builds what it needs (the same path as its first use)
  buildOnFirstUse(true);
  for (const peer of peers.filter((p) => what.includes(p.name) && !findBuild(p.name))) {
    const why = peer.unavailable();
    log(why === undefined ? `peer ${peer.name}: ready` : `peer ${peer.name}: cannot run here: ${why}`);
    ok = ok && why === undefined;
  }
  return ok;
}

export async function main(args: Parsed): Promise<number> {
  const started = performance.now();
  const named = args.positionals.filter((name) => name !== "all");
  const ok = await setup(named.length > 0 ? named : "all");
  console.log(`set-up ${ok ? "done" : "had failures"} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return ok || !read.flag(args, "strict") ? 0 : 1;
}
