// A user's resolved Python stack (`stack`) installed into a venv of its own, so the lab can run its client:
// exactly the set pip resolved (--no-deps), with each file's sha256 where pip's report gave one
// (--require-hashes then; without, `stack` says so), made by uv as the peers' venvs are (lab/peers/python/uv.ts).
// Kept under build/stack/venvs/<hash of the resolved set>: a second run of the same set starts at once.
// A client peer of the lab runs on it with its own program and flags, only the interpreter changed.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import type { ClientPeer } from "../plan/peer.js";
import type { ResolvedPackage, StackResolution } from "../plan/python-stack.js";
import { withBuildLock } from "./build-lock.js";
import { writeStamp } from "./cached-build.js";
import { python311, STACK_CACHE_DIR } from "./pip-resolve.js";
import { ensureUv, makeVenv } from "./python/uv.js";

export const STACK_VENVS_DIR = join(STACK_CACHE_DIR, "venvs");

export interface StackVenv {
  dir: string;
  python: string;
  /** every file installed was checked against the sha256 pip's report gave */
  hashed: boolean;
  /** built by an earlier run */
  cached: boolean;
}

/** The requirements file of a resolved set: `name==version`, with its hash where the report gave one. */
export function stackRequirements(packages: readonly ResolvedPackage[]): { text: string; hashed: boolean } {
  const hashed = packages.every((p) => p.sha256 !== undefined);
  const line = (p: ResolvedPackage) => `${p.name}==${p.version}${hashed ? ` \\\n    --hash=sha256:${p.sha256}` : ""}`;
  return { text: `${packages.map(line).join("\n")}\n`, hashed };
}

const hashOf = (text: string) => createHash("sha256").update(text).digest("hex");

/** The venv's folder: by the hash of the requirements it is made from. */
export function stackVenvDir(packages: readonly ResolvedPackage[]): string {
  return join(STACK_VENVS_DIR, hashOf(stackRequirements(packages).text).slice(0, 24));
}

/** The set's venv, made once (under a build lock: two runs of the same set make it once); rejects with why not. */
export async function stackVenv(stack: StackResolution): Promise<StackVenv> {
  const dir = stackVenvDir(stack.packages);
  const { text, hashed } = stackRequirements(stack.packages);
  const stamp = `${dir}.stamp`;
  const venv = (cached: boolean): StackVenv => ({ dir, python: join(dir, "bin", "python"), hashed, cached });
  const done = () => existsSync(stamp) && readFileSync(stamp, "utf8").trim() === hashOf(text);
  if (done()) return venv(true);
  const py = python311();
  if (typeof py === "string") throw new Error(py);
  return withBuildLock(`stack-${dir.split("/").at(-1)}`, async () => {
    if (done()) return venv(true);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(STACK_VENVS_DIR, { recursive: true });
    const requirements = `${dir}.requirements.txt`;
    writeFileSync(requirements, text);
    await makeVenv("uv", py.python, dir, requirements, await ensureUv(py.python), {}, hashed).catch((error: Error) => {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(uvSays(error.message));
    });
    writeStamp(stamp, hashOf(text));
    return venv(false);
  });
}

/** What uv's failure comes down to, in one line: its `error:` and `cause:` lines (runCommand's message
 *  starts with the command, a path of this machine, and is left out). */
export function uvSays(message: string): string {
  const lines = message.split("\n").slice(1).map((l) => l.trim()).filter(Boolean);
  const said = lines.filter((l) => /^(error|cause|hint):/.test(l));
  return (said.length > 0 ? said : lines.slice(-1)).join("; ") || "uv failed without a message";
}

/** `peer` with its driver run by `python` (the stack's venv) instead of its own venv's: the same program and flags,
 *  spawned fresh (a warm host belongs to a peer's own venv). */
export function onInterpreter(peer: ClientPeer, python: string): ClientPeer {
  const driver = peer.driver;
  if (driver.kind !== "process") throw new Error(`${peer.name}: not a process driver, cannot run on another venv`);
  return {
    ...peer,
    unavailable: () => (existsSync(python) ? undefined : `${python} is missing`),
    driver: { ...driver, command: (plan, events) => ({ ...driver.command(plan, events), command: python, fork: undefined, host: undefined }) },
  };
}
