// `stack` runs the probe against the client a user's Python stack resolves (issue 42 §3): the resolved set
// installed into a venv of its own (lab/peers/stack-venv.ts), then the lab's adapter for each framework of the
// set (its client.py, the framework's own MCP client object) run by that venv's interpreter, in the scenario
// of the first nested row its hand-written card holds (a form, sampling or roots callback that sends a request
// from inside), against the lab's ts1 server over stdio. With no framework adapter, the SDK's own (py for mcp
// 2.x, py130: py1's for 1.x). The answer is read from the run alone (lab/check/card-requests.ts' nestedOutcome):
// whether the nested request's reply sat on the wire unread until a limit ended the wait, and which limit.
import { cardKey, loadExpectedCards } from "../check/card-expected.js";
import { nestedOutcome, REQUEST_ROW_SCENARIO } from "../check/card-requests.js";
import { compactWord } from "../check/card-words.js";
import { FRAMEWORK_PEERS, frameworkPeer } from "../peers/python-frameworks.js";
import { findClient } from "../peers/registry.js";
import { onInterpreter, stackVenv } from "../peers/stack-venv.js";
import { readVersions } from "../peers/versions.js";
import type { StackResolution } from "../plan/python-stack.js";
import { runCase } from "../session/pipeline.js";
import { findScenario } from "../../scenarios/index.js";
import { relative } from "node:path";
import { PROJECT_ROOT } from "../paths.js";

const NESTED_ROWS = [
  { row: "nested", scenario: "nested", method: "elicitation/create", callback: "form" },
  { row: "samplingNested", scenario: REQUEST_ROW_SCENARIO.samplingNested, method: "sampling/createMessage", callback: "sampling" },
  { row: "rootsNested", scenario: REQUEST_ROW_SCENARIO.rootsNested, method: "roots/list", callback: "roots" },
] as const;

/** The peers whose adapters run on the stack: each framework's of the set, else the SDK's own. */
export function probePeers(stack: StackResolution, mcpMajor: number): string[] {
  const has = (dist: string) => stack.packages.some((p) => p.name === dist);
  const adapters = (dists: (d: string) => boolean) =>
    FRAMEWORK_PEERS.filter((e) => dists(e.dist) && has(e.dist))
      .map((e) => frameworkPeer(e, mcpMajor))
      .filter((p): p is string => p !== undefined && findClient(p) !== undefined);
  const frameworks = [...new Set(adapters((d) => d !== "mcp"))];
  return frameworks.length > 0 ? frameworks : adapters((d) => d === "mcp").slice(0, 1);
}

/** The first nested row `peer`'s card (against ts1) answers with a callback: the scenario that asks it. */
function nestedRowOf(peer: string): (typeof NESTED_ROWS)[number] | undefined {
  const cells = (loadExpectedCards().get(cardKey({ client: peer, loop: "sdk", server: "ts1" }))?.cells ?? {}) as Record<string, string | number | undefined>;
  return NESTED_ROWS.find(({ row }) => cells[row] !== undefined && compactWord(cells[row]!, `${peer}'s card`) !== "n/a");
}

/** The answer, from the nested row's cell of the run: its value (the card's words) and its text (the value and,
 *  in brackets, the error, the limit and the measured wait). */
export function probeVerdict(cellValue: string | number | undefined, cellText: string | undefined): string {
  const value = String(cellValue ?? "no nested request seen");
  const detail = cellText ?? value;
  if (value === "completes") return `does not deadlock: the nested request got its reply (${detail})`;
  if (value.startsWith("hangs")) return `your stack hangs: ${detail}`;
  if (!value.startsWith("deadlocks until ")) return detail;
  const inner = detail.slice(value.length).trim().replace(/^\(|\)$/g, "");
  // "deadlocks until the lab's backstop: no SDK limit on this path": the limit, then what the card adds
  const [limit, note] = value.slice("deadlocks until ".length).split(": ");
  const why = [note, inner].filter(Boolean).join("; ");
  return `your stack deadlocks: the nested request's reply sat on the wire, unread, until ${limit} ended the wait${why ? ` (${why})` : ""}`;
}

/** One line: what the run shows. */
async function probeOne(peerName: string, python: string, log: (line: string) => void): Promise<void> {
  const registered = findClient(peerName)!;
  const row = nestedRowOf(peerName);
  if (!row) {
    log(`  ${peerName}: its card has no callback that can send a nested request (a server that asks gets an error): nothing to deadlock`);
    return;
  }
  const client = onInterpreter(registered, python);
  const report = await runCase(findScenario(row.scenario)!, "sdk", { client, transports: ["stdio"], repeat: 1, onDeadlock: "wait" }, readVersions());
  const run = report.runs[0];
  const head = `  ${peerName}'s adapter, a nested request from inside the ${row.callback} callback (scenario ${row.scenario}, ts1 server, stdio):`;
  if (!run) return log(`${head} did not run (${report.summary})`);
  const outcome = nestedOutcome(run, row.method);
  if (run.fault) return log(`${head} the adapter failed on this stack: ${run.fault}`);
  log(`${head} ${probeVerdict(outcome?.cell.value, outcome?.cell.text)}`);
}

/** Installs the set (or finds it installed) and runs each adapter on it; every line through `log`. */
export async function probeStack(stack: StackResolution, mcpMajor: number, log: (line: string) => void): Promise<void> {
  const peers = probePeers(stack, mcpMajor);
  if (peers.length === 0) return log("probe: no adapter of the lab runs this stack's client");
  const venv = await stackVenv(stack);
  const hashes = venv.hashed ? "every file checked against the sha256 pip's report gave" : "without hashes: pip's report gave no sha256 for some file";
  log(`probe: ${relative(PROJECT_ROOT, venv.dir)}, the ${stack.packages.length} packages installed by uv, ${hashes}${venv.cached ? " (made by an earlier run)" : ""}`);
  for (const peer of peers) await probeOne(peer, venv.python, log);
}
