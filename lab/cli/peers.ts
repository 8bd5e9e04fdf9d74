// `peers`: every client and server peer, its SDK and version, and whether it can run here.
import { read, UsageError, type Parsed } from "./args.js";
import { envInfo, envProblem, PYTHON_ENVS } from "../peers/python/setup.js";
import { versionMismatches } from "../peers/installed.js";
import { sdkText, type ClientPeer } from "../plan/peer.js";
import { CLIENT_PEERS, LISTED_CLIENT_PEERS, SERVER_PEERS } from "../peers/registry.js";
import { HOST_PEERS } from "../peers/hosts/index.js";
import { HELD_BACK } from "../peers/held-back.js";
import { readReviewed, refreshLatest, writeReviewed } from "../peers/latest.js";
import { pinnedPackages, pinProblems, pinRows, staleReasons, type PinnedPeer } from "../check/pin-lag.js";
import { renderPinTable } from "../render/pin-table.js";

/** every real peer whose pins the registries are asked about: clients, servers, hosts */
export const PINNED_PEERS: readonly PinnedPeer[] = [
  ...LISTED_CLIENT_PEERS.map((p) => ({ role: "client", name: p.name, sdk: p.sdk })),
  ...SERVER_PEERS.map((p) => ({ role: "server", name: p.name, sdk: p.sdk })),
  ...HOST_PEERS.map((p) => ({ role: "host", name: p.name, sdk: p.sdk })),
];

/** `peers --latest`: the pin table; with --strict, exit 1 on a pin that lags with no reason. */
async function latest(strict: boolean, review: boolean): Promise<number> {
  const found = await refreshLatest(pinnedPackages(PINNED_PEERS), { force: review });
  // --review: the pins were just checked against these; a release newer than them is "new since review" until next time
  if (review) {
    if (found.offline) throw new UsageError(`peers --review: not every registry answered (${found.offline}); nothing written`);
    writeReviewed(found);
    console.log(`reviewed: the newest of ${Object.keys(found.newest).length} packages written to lab/peers/reviewed-newest.json`);
  }
  const rows = pinRows(PINNED_PEERS, found.newest, HELD_BACK, readReviewed()?.newest);
  for (const line of renderPinTable(rows, found)) console.log(line);
  const problems = pinProblems(rows, HELD_BACK);
  for (const line of problems) console.error(`${strict ? "error" : "warning"}: ${line}`);
  for (const line of staleReasons(rows)) console.error(`warning: ${line}`);
  return strict && problems.length > 0 ? 1 : 0;
}

/** Where a client runs, and on which Node when it is JavaScript (read from the binary). */
function where(driver: ClientPeer["driver"]): string {
  if (driver.kind === "in-process") return `this process (Node ${process.version})`;
  const runtime = driver.runsOn?.();
  return driver.runsOn ? `own process (${runtime ?? "its runtime is not built"})` : "own process";
}

/** With --strict, exit 1 when any peer cannot run (CI must never skip a peer silently) or a peer's
 *  installed version differs from its pin. */
export async function main(args: Parsed): Promise<number> {
  const strict = read.flag(args, "strict");
  if (read.flag(args, "review") && !read.flag(args, "latest")) throw new UsageError("peers: --review goes with --latest");
  if (read.flag(args, "latest")) return latest(strict, read.flag(args, "review"));
  // one column for every name: the longest peer or env name sets it
  const width = Math.max(...[...CLIENT_PEERS, ...SERVER_PEERS, ...PYTHON_ENVS].map((p) => p.name.length));
  console.log("client peers");
  for (const p of CLIENT_PEERS) {
    const why = p.unavailable();
    console.log(`  ${p.name.padEnd(width)} ${why === undefined ? "ready      " : "UNAVAILABLE"} ${sdkText(p.sdk)} · loops ${p.loops.join(", ")} · era ${p.era} · ${where(p.driver)}`);
    console.log(`  ${"".padEnd(width)} ${p.meaning}${why === undefined ? "" : `\n  ${"".padEnd(width)} why unavailable: ${why}`}`);
  }
  console.log("server peers");
  for (const p of SERVER_PEERS) {
    const why = p.unavailable();
    const where = [p.inProcess && "this process", p.child && "stdio child", p.http && "HTTP child"].filter(Boolean).join(", ");
    console.log(`  ${p.name.padEnd(width)} ${why === undefined ? "ready      " : "UNAVAILABLE"} ${sdkText(p.sdk)} · runs in ${where}`);
    console.log(`  ${"".padEnd(width)} ${p.meaning}${why === undefined ? "" : `\n  ${"".padEnd(width)} why unavailable: ${why}`}`);
  }
  console.log("python environments");
  for (const env of PYTHON_ENVS) {
    const why = envProblem(env);
    const { versions, interpreter } = envInfo(env);
    const shown = Object.entries(versions).map(([name, version]) => `${name} ${version ?? "not installed"}`).join(" · ");
    console.log(`  ${env.name.padEnd(width)} ${why === undefined ? "ready      " : "UNAVAILABLE"} ${shown} · ${env.python} -> ${interpreter ?? "none"}${why === undefined ? "" : ` · ${why}`}`);
  }
  const all = [...CLIENT_PEERS.map((p) => ({ p, role: "client" })), ...SERVER_PEERS.map((p) => ({ p, role: "server" }))];
  const missing = all.filter(({ p }) => p.unavailable() !== undefined);
  if (strict && missing.length > 0) {
    console.error(`error: ${missing.length} peer(s) unavailable: ${missing.map(({ p, role }) => `${role} ${p.name}`).join(", ")}`);
  }
  // a label is read from the install; an install that differs from its pin runs another SDK than the expectations cite
  const differ = versionMismatches(all.map(({ p, role }) => ({ role, name: p.name, sdk: p.sdk })));
  for (const line of differ) console.error(`${strict ? "error" : "warning"}: version differs: ${line}`);
  return strict && missing.length + differ.length > 0 ? 1 : 0;
}
