// `stack --python "<requirements>"`: the user's own Python agent stack as pip resolves it for
// CPython 3.11: which `mcp` it got, which card column that mcp behaves like (its nested row read
// from the hand-written card, never typed here), and which of the lab's framework adapters match
// the packages in the set; then, unless --no-run, runs those adapters on the set installed (lab/cli/stack-probe.ts).
// Bad input, a set that does not resolve, no index, an install that fails: one line, exit 2.
import { read, UsageError, type Parsed } from "./args.js";
import { cardKey, loadExpectedCards } from "../check/card-expected.js";
import { badRequirement, resolvePythonStack } from "../peers/pip-resolve.js";
import { FRAMEWORK_PEERS, frameworkPeer } from "../peers/python-frameworks.js";
import { findClient } from "../peers/registry.js";
import type { StackResolution } from "../plan/python-stack.js";
import { probeStack } from "./stack-probe.js";

/** The card column a resolved mcp behaves like: the serial 1.x loop or the concurrent 2.x one. */
export function columnFor(mcpVersion: string): { client: string; loop: string } {
  const major = Number(mcpVersion.split(".")[0]);
  // py130 (mcp 1.30.0, the last 1.x) once it is registered; until then py1 (1.29.0), the same loop
  if (major < 2) return { client: findClient("py130") ? "py130" : "py1", loop: "sdk" };
  return { client: "py", loop: "sdk" };
}

/** One adapter row per framework of the set: its peer on this mcp generation, if the lab has one. */
export function adapterRows(stack: StackResolution, mcpMajor: number): { dist: string; version: string; what: string; peer: string }[] {
  const rows = [];
  for (const entry of FRAMEWORK_PEERS) {
    const found = stack.packages.find((p) => p.name === entry.dist);
    if (!found) continue;
    const peer = frameworkPeer(entry, mcpMajor);
    const shown = peer === undefined ? `no adapter planned for mcp ${mcpMajor}.x` : findClient(peer) ? peer : `${peer} (no adapter yet)`;
    rows.push({ dist: found.name, version: found.version, what: entry.what, peer: shown });
  }
  return rows;
}

/** What the card's hand-written column says about the nested rows, against the lab's ts1 server. */
function cardSays(client: string, loop: string): string {
  const card = loadExpectedCards().get(cardKey({ client, loop, server: "ts1" }));
  if (!card) return "no hand-written card for it yet";
  const cells = card.cells as Record<string, string | undefined>;
  return [["nested", cells.nested], ["sampling nested", cells.samplingNested], ["roots nested", cells.rootsNested]]
    .filter(([, v]) => v !== undefined)
    .map(([row, v]) => `${row}: ${v}`)
    .join(" · ");
}

export async function main(args: Parsed): Promise<number> {
  const text = read.text(args, "python");
  if (text === undefined || text.trim() === "") throw new UsageError('stack: --python "<requirements>" is required, e.g. --python "google-adk[mcp] langchain-mcp-adapters"');
  const requirements = text.trim().split(/\s+/);
  const bad = badRequirement(requirements);
  if (bad !== undefined) throw new UsageError(`stack: "${bad}" is not a requirement from the package index (NAME, NAME[extra], NAME==1.2 or NAME<2; no paths, URLs or pip options)`);
  const { outcome, cached } = resolvePythonStack(requirements);
  if (outcome.kind !== "resolved") {
    console.error(`error: stack: ${outcome.line}`);
    return 2;
  }
  console.log(`stack: ${requirements.join(" ")}`);
  console.log(`resolved for CPython ${outcome.python} by pip ${outcome.pip}, ${outcome.resolvedAt}${cached ? " (cached under build/stack/)" : ""}: ${outcome.packages.length} packages`);
  const mcp = outcome.packages.find((p) => p.name === "mcp");
  if (!mcp) {
    console.log("mcp: not in this set: nothing in it speaks MCP through the Python SDK");
    return 0;
  }
  const major = Number(mcp.version.split(".")[0]);
  const { client, loop } = columnFor(mcp.version);
  console.log(`mcp ${mcp.version}: ${major < 2 ? "the 1.x receive loop: serial, one inbound request at a time" : "the 2.x receive loop: each inbound request dispatched concurrently"}`);
  console.log(`behaves like the card's ${client} column (loop ${loop}): ${cardSays(client, loop)}`);
  const rows = adapterRows(outcome, major);
  console.log(rows.length === 0 ? "framework adapters: none of the lab's frameworks is in this set" : "framework adapters:");
  const width = Math.max(0, ...rows.map((r) => `${r.dist} ${r.version}`.length)) + 2;
  for (const r of rows) console.log(`  ${`${r.dist} ${r.version}`.padEnd(width)}${r.peer} · ${r.what}`);
  if (read.flag(args, "no-run")) return 0;
  try {
    await probeStack(outcome, major, (line) => console.log(line));
  } catch (error) {
    // an install that fails (a wheel gone from the index, no uv, no network) is the user's environment: one line
    console.error(`error: stack: could not install the resolved set to run it: ${String((error as Error).message ?? error).split("\n")[0]}`);
    return 2;
  }
  return 0;
}
