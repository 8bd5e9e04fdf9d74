// `hosts`: every host peer (lab/peers/hosts/) run once headless against the lab's probe server with
// the scripted model asking for probe_receive_loop; a missing host is installed first (one line, its
// time). Prints one line per host as it ends, then the table, compared with expected/hosts/;
// writes hosts.md and hosts.json to the store. Exit 1 when a cell differs from its card, or a host
// whose card says it runs did not; a host with no card, or whose card says it does not run, is shown.
import { join } from "node:path";
import { read, type Parsed } from "./args.js";
import { openInvocation, writeStoreIndex } from "./store.js";
import { shown, writeAtomic, writeJsonAtomic } from "./output.js";
import { cardDifferences, cellsOf, fanOutAtOnce } from "../check/host-row.js";
import { loadHostCards } from "../check/host-cards.js";
import { HOST_FAN_OUT_SCENARIO, HOST_PEERS, HOST_SERVER, lastHostRun, planFor, HOST_SCENARIO } from "../peers/hosts/index.js";
import { HOST_BOUND_MS, networkSites, type HostRun } from "../peers/hosts/host-session.js";
import type { SessionEvidence } from "../plan/session.js";
import { sdkText, type ClientPeer } from "../plan/peer.js";
import type { HostRow } from "../plan/host-card.js";
import { renderHostsMarkdown, renderHostsText, renderHostWire, type HostLine } from "../render/hosts-table.js";
import { runSession } from "../session/session.js";
import { openStdioTransport } from "../transports/stdio.js";
import { RUN_OUTPUT_DIR } from "../paths.js";

/** the version the label shows ("<pkg> 1.2.3"), or undefined when not installed */
const versionOf = (peer: ClientPeer) => /\s(\d[\w.+-]*)$/.exec(sdkText(peer.sdk))?.[1];

/** One host: installed on first use (its own check), run once, its row read from the wire; the
 *  session's evidence and the host's run (with the scripted model's) are kept with it. */
export async function hostRow(peer: ClientPeer): Promise<HostRow> {
  return (await hostRun(peer)).row;
}

export async function hostRun(peer: ClientPeer): Promise<{ row: HostRow; evidence?: SessionEvidence; run?: HostRun }> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const why = peer.unavailable();
  if (why !== undefined) return { row: { host: peer.name, notRun: why, modelPhases: [], seconds: seconds() } };
  const evidence = await runSession(HOST_SCENARIO, openStdioTransport, "stdio", { loop: "sdk", client: peer, server: HOST_SERVER, boundMs: HOST_BOUND_MS + 30_000 });
  const run = lastHostRun(peer.name);
  const modelPhases = run?.model.exchanges.map((e) => `${e.phase}${e.calledAs ? ` ${e.calledAs}` : ""}`) ?? [];
  const tried = run ? networkSites(run) : [];
  const base = { host: peer.name, version: versionOf(peer), modelPhases, seconds: seconds(), ...(tried.length > 0 && { triedNetwork: tried }) };
  const kept = { evidence, ...(run && { run }) };
  if (evidence.errors.length > 0) return { row: { ...base, notRun: evidence.errors[0]! }, ...kept };
  const read = cellsOf(evidence.wire, planFor(HOST_SCENARIO).tool);
  if ("why" in read) return { row: { ...base, notRun: read.why }, ...kept };
  // an answer that waited for someone: how many forms that someone takes at once is the fan-out's
  if (read.cells.formGot === "accept") {
    const fan = await runSession(HOST_FAN_OUT_SCENARIO, openStdioTransport, "stdio", { loop: "sdk", client: peer, server: HOST_SERVER, boundMs: HOST_BOUND_MS + 30_000 });
    read.cells.formsAtOnce = fan.errors.length > 0 ? 0 : (fanOutAtOnce(fan.wire) ?? 0);
    base.seconds = seconds();
  }
  return { row: { ...base, cells: read.cells, ...(read.triedFirst && { triedFirst: read.triedFirst }), ...(read.pingsWhileOpen && { pingsWhileOpen: read.pingsWhileOpen }), ...(read.nested && { nested: read.nested }) }, ...kept };
}

/** 1 when a cell differs from its card, or a host whose card says it runs did not; else 0. */
export function hostsExit(lines: readonly HostLine[]): number {
  return lines.some((l) => l.differs.length > 0 || (l.row.cells === undefined && l.card?.runs === true)) ? 1 : 0;
}

export async function main(args: Parsed): Promise<number> {
  const cards = loadHostCards();
  const named = read.list(args, "client");
  const peers = named && !named.includes("all") ? HOST_PEERS.filter((p) => named.includes(p.name)) : HOST_PEERS;
  const unknown = (named ?? []).filter((n) => n !== "all" && !HOST_PEERS.some((p) => p.name === n));
  if (unknown.length > 0) {
    console.error(`hosts: no host named ${unknown.join(", ")} (the hosts: ${HOST_PEERS.map((p) => p.name).join(", ")})`);
    return 2;
  }
  const inv = openInvocation(read.text(args, "out") ?? RUN_OUTPUT_DIR, "hosts");
  const lines: HostLine[] = [];
  const wires: string[] = [];
  for (const peer of peers) {
    const { row, evidence, run } = await hostRun(peer);
    // the wire between host and server, and what the scripted model got and answered
    if (evidence) writeJsonAtomic(join(inv.dir, `${peer.name}.wire.json`), { events: evidence.events, wire: evidence.wire, errors: evidence.errors });
    if (run) writeJsonAtomic(join(inv.dir, `${peer.name}.host.json`), run);
    // the pings only where the probe judged a loop: around an answer given at once they are timing
    const judged = row.cells?.verdict === "concurrent" || row.cells?.verdict === "serial";
    if (evidence) wires.push("", ...renderHostWire(peer.name, evidence.wire, judged ? row.pingsWhileOpen : undefined));
    const card = cards.get(peer.name);
    const differs = row.cells && card ? cardDifferences(row.cells, card) : [];
    lines.push({ row, ...(card && { card }), differs });
    const what = row.cells ? `form: ${row.cells.formGot}, receive loop: ${row.cells.verdict}${row.nested ? `, nested: ${row.nested}` : ""}` : `not run: ${row.notRun}`;
    console.log(`${peer.name} ${row.version ?? ""}: ${what} (${row.seconds.toFixed(1)} s)`.replace("  ", " "));
    if (row.triedNetwork) console.log(`  finding: ${peer.name} tried the network: ${row.triedNetwork.join(", ")} (refused)`);
  }
  console.log(`\n${renderHostsText(lines)}`);
  if (read.flag(args, "wire")) console.log(["", "the wire between each host and the server (pings folded):", ...wires].join("\n"));
  writeJsonAtomic(join(inv.dir, "hosts.json"), lines);
  writeAtomic(join(inv.dir, "hosts.md"), renderHostsMarkdown(lines));
  writeStoreIndex(inv.root);
  console.log(`\nwrote ${shown(join(inv.dir, "hosts.md"))}`);
  return hostsExit(lines);
}
