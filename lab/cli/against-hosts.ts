// `against --hosts`: your stdio server under each host (lab/peers/hosts/), the scripted model asking
// the host to call your tool once. One line per host: what it declared, what each form your server
// sent got (the host's headless default, or the lab's answerer by the plan: lab/peers/hosts/answer.ts),
// a request the answerer sent through the host while the form was open, and how your call ended.
// Observations only, as for client peers: the lab never judges your tool's result.
import { join } from "node:path";
import { HOST_PEERS, lastHostRun } from "../peers/hosts/index.js";
import { HOST_BOUND_MS, networkSites } from "../peers/hosts/host-session.js";
import { cellsOf } from "../check/host-row.js";
import { FORM_CAPABILITY, type Scenario } from "../plan/scenario.js";
import { sdkText, type ClientPeer, type ServerPeer } from "../plan/peer.js";
import type { SessionEvidence } from "../plan/session.js";
import type { WireFrame } from "../history/timeline.js";
import { runSession } from "../session/session.js";
import { openProcessTransport } from "../transports/process.js";
import { UsageError } from "./args.js";
import { writeJsonAtomic } from "./output.js";

export interface HostObservation {
  host: string;
  version: string;
  /** the host's line: what it declared, what your forms got, how your call ended; or why it did not run */
  line: string;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

/** How your call ended, from its reply on the wire: the result's first text, or the error. */
export function callEnd(wire: readonly WireFrame[], tool: string): string {
  const call = wire.find((f) => f.from === "client" && f.label.frameType === "request" && f.label.method === "tools/call" && obj(obj(f.message).params).name === tool);
  if (!call) return `the host never called ${tool}`;
  const reply = wire.find((f) => f.replyTo === call.index);
  if (!reply) return "the call did not end";
  const m = obj(reply.message);
  if (m.error !== undefined) return `the call ended with error ${String(obj(m.error).code)}`;
  const result = obj(m.result);
  const text = (Array.isArray(result.content) ? result.content : []).map(obj).find((c) => c.type === "text")?.text;
  return `the call ended with a result${result.isError ? " (isError)" : ""}${typeof text === "string" ? `: "${text.replace(/\s+/g, " ").slice(0, 80)}"` : ""}`;
}

/** One host's line from its session. */
export function hostLine(peer: ClientPeer, tool: string, run: SessionEvidence): string {
  const read = cellsOf(run.wire, tool);
  if ("why" in read) return `not run: ${run.errors[0] ?? read.why}`;
  const { declares, formGot } = read.cells;
  const forms = !declares.form ? "declares no form: your form was never sent" : formGot === "never sent" ? "your server sent no form" : `your form got: ${formGot}`;
  const host = lastHostRun(peer.name);
  const tried = host ? networkSites(host) : [];
  return [forms, ...(read.nested ? [`the answerer's ${read.nested}`] : []), callEnd(run.wire, tool), ...(tried.length ? [`tried the network (refused): ${tried.join(", ")}`] : [])].join(" · ");
}

/** Runs your server under each host (or those named), one line each as it ends; writes against-hosts.json. */
export async function againstHosts(options: { tool: string; args: Record<string, unknown>; clients?: string[]; server: ServerPeer; dir: string }): Promise<number> {
  const unknown = (options.clients ?? []).filter((n) => !HOST_PEERS.some((p) => p.name === n));
  if (unknown.length) throw new UsageError(`against --hosts: no host named ${unknown.join(", ")} (the hosts: ${HOST_PEERS.map((p) => p.name).join(", ")})`);
  const hosts = options.clients ? HOST_PEERS.filter((p) => options.clients!.includes(p.name)) : HOST_PEERS;
  const plan: Scenario = { name: "against-hosts", summary: `the scripted model asks the host to call ${options.tool} once`, capabilities: FORM_CAPABILITY, listToolsFirst: false, calls: [{ label: "call", tool: options.tool, args: options.args }] };
  const width = Math.max(...hosts.map((p) => p.name.length));
  const observations: HostObservation[] = [];
  const runs: Record<string, SessionEvidence> = {};
  for (const peer of hosts) {
    const version = /\s(\d[\w.+-]*)$/.exec(sdkText(peer.sdk))?.[1] ?? "-";
    const why = peer.unavailable();
    let line: string;
    if (why !== undefined) line = `not run: ${why}`;
    else {
      const run = await runSession(plan, openProcessTransport, "stdio", { loop: "sdk", client: peer, server: options.server, boundMs: HOST_BOUND_MS + 30_000 });
      runs[peer.name] = run;
      line = hostLine(peer, options.tool, run);
    }
    observations.push({ host: peer.name, version, line });
    console.log(`${peer.name.padEnd(width)} ${version.padEnd(8)} ${line}`);
    writeJsonAtomic(join(options.dir, "against-hosts.json"), { tool: options.tool, args: options.args, observations, runs });
  }
  return observations.some((o) => !o.line.startsWith("not run")) ? 0 : 1;
}
