// tsx lab/run.ts against --tool NAME [--args JSON] [--client a,b] [--out DIR] [--junit FILE] -- <command...>
// Brings your own stdio server: every client peer (or those named) connects to a fresh child of
// <command>, calls the tool once, and when the server asks for input the callback first awaits
// tools/list on its own session (asking for a 0.5 s limit), then declines. The lab records the wire
// between the client and your server and reports, per client, what it saw: did the server ask at
// all, did the nested request complete or deadlock, and what ended the wait (read from its error:
// the SDK's limit, the lab's backstop where the SDK sets none, or the callback's own), did the call
// end and how. These are observations: the lab cannot know your server's intent and never judges
// its business result.
import { join } from "node:path";
import { read, UsageError, type Parsed } from "./args.js";
import { defaultOutDir, ensureNewReportFile, shown, writeAtomic, writeJsonAtomic } from "./output.js";
import { renderJunit } from "../render/junit.js";
import { openInvocation, writeStoreIndex } from "./store.js";
import { CLIENT_PEERS } from "../peers/registry.js";
import { sdkText, type ClientPeer, type ServerPeer } from "../plan/peer.js";
import { FORM_CAPABILITY, type Scenario } from "../plan/scenario.js";
import type { SessionEvidence } from "../plan/session.js";
import { runSession } from "../session/session.js";
import { nestedOutcome } from "../check/card-requests.js";
import { waitEndWords } from "../render/outcome.js";
import { openProcessTransport } from "../transports/process.js";
import { againstHosts } from "./against-hosts.js";

export const NESTED_LIMIT_MS = 500;
const SESSION_BOUND_MS = 30_000;

export interface Observation {
  client: string;
  sdk: string;
  asked: boolean;
  /** deadlocked: the reply was on the wire before the callback gave up */
  nested: "completed" | "deadlocked" | "not sent" | "failed";
  nestedError?: string;
  /** a deadlock's end, in words read from its error ("the SDK's request limit (0.5 s, McpError 408)") */
  endedBy?: string;
  call: string;
  errors: string[];
}

function parse(parsed: Parsed): { tool: string; args: Record<string, unknown>; clients?: string[]; outDir?: string; junit?: string; command: string[] } {
  const tool = read.text(parsed, "tool");
  if (!tool) throw new UsageError("against: name the tool to call with --tool NAME");
  const clients = read.list(parsed, "client");
  const outDir = read.text(parsed, "out");
  const junit = read.text(parsed, "junit");
  return { tool, args: read.json(parsed, "args") ?? {}, ...(clients && { clients }), ...(outDir && { outDir }), ...(junit && { junit: ensureNewReportFile(junit, "--junit") }), command: parsed.passthrough };
}

/** Your server as a server peer: a fresh stdio child of your command for every session. */
const yours = (command: string[]): ServerPeer => ({
  name: "yours",
  sdk: "your server",
  meaning: command.join(" "),
  unavailable: () => undefined,
  child: { writesEvents: false, command: () => ({ command: command[0]!, args: command.slice(1) }) },
});

const scenario = (tool: string, args: Record<string, unknown>): Scenario => ({
  name: "against",
  summary: `calls ${tool} once; the callback awaits tools/list on its own session (${NESTED_LIMIT_MS} ms), then declines`,
  capabilities: FORM_CAPABILITY,
  listToolsFirst: false,
  calls: [{ label: "call", tool, args, callback: { nested: { method: "tools/list", timeoutMs: NESTED_LIMIT_MS }, answer: { action: "decline" }, otherwise: { action: "decline" } } }],
});

/** What one session shows, read from its timeline. */
export function observe(client: ClientPeer, run: SessionEvidence): Observation {
  const asked = run.wire.some((f) => f.from === "server" && f.label.method === "elicitation/create");
  const ok = run.events.some((e) => e.side === "client" && e.kind === "nested.ok");
  const failed = run.events.find((e) => e.side === "client" && e.kind === "nested.failed");
  // The deadlock's signature, by order (the card's reading): the nested reply was on the wire before
  // the callback gave up; what ended the wait comes from the error it got, not from the plan.
  const outcome = nestedOutcome(run, "elicitation/create");
  const timedOut = failed !== undefined && outcome?.deadlock === true;
  const result = run.events.find((e) => e.side === "client" && e.kind === "tool.result");
  const detail = result?.detail as { isError?: boolean; error?: { code?: unknown; message?: unknown } } | undefined;
  const call = !result ? "did not end (no result or error reached the client)" : detail?.error ? `ended with error ${String(detail.error.code)}` : `ended with a result${detail?.isError ? " (isError)" : ""}`;
  return {
    client: client.name,
    sdk: sdkText(client.sdk),
    asked,
    nested: !asked ? "not sent" : ok ? "completed" : timedOut ? "deadlocked" : failed ? "failed" : "not sent",
    ...(failed && { nestedError: `${String(failed.detail?.code ?? "no code")} ${String(failed.detail?.type ?? "")}`.trim() }),
    ...(timedOut && { endedBy: waitEndWords(outcome.waitEnd) }),
    call,
    errors: run.errors,
  };
}

export const observationLine = (o: Observation) =>
  `${o.client.padEnd(Math.max(...CLIENT_PEERS.map((p) => p.name.length)))} ${!o.asked ? "the server sent no elicitation/create" : `nested tools/list ${o.endedBy ? `deadlocked until ${o.endedBy}` : `${o.nested}${o.nestedError ? ` (${o.nestedError})` : ""}`}`} · the call ${o.call}${o.errors.length ? ` · session: ${o.errors[0]}` : ""}`;

export async function main(args: Parsed): Promise<number> {
  const options = parse(args);
  if (read.flag(args, "hosts")) {
    const inv = openInvocation(options.outDir ?? defaultOutDir(), "against");
    const code = await againstHosts({ ...options, server: yours(options.command), dir: inv.dir });
    writeStoreIndex(inv.root);
    console.log(`evidence in ${shown(inv.dir)}`);
    return code;
  }
  const wanted = options.clients ?? CLIENT_PEERS.map((p) => p.name);
  const unknown = wanted.filter((n) => !CLIENT_PEERS.some((p) => p.name === n));
  if (unknown.length) throw new UsageError(`against: unknown client peer ${unknown.join(", ")}; see \`peers\``);
  // 2026-07-28 clients get no server-to-client request by design: nothing to observe here
  const clients = CLIENT_PEERS.filter((p) => wanted.includes(p.name) && p.era !== "2026-07-28");
  for (const p of CLIENT_PEERS.filter((p) => wanted.includes(p.name) && p.era === "2026-07-28")) console.error(`${p.name}: not run (2026-07-28: a server sends no request to the client)`);
  const inv = openInvocation(options.outDir ?? defaultOutDir(), "against");
  const server = yours(options.command);
  const plan = scenario(options.tool, options.args);
  const observations: Observation[] = [];
  const runs: SessionEvidence[] = [];
  for (const client of clients) {
    const why = client.unavailable();
    if (why) {
      console.error(`${client.name}: not run: ${why}`);
      continue;
    }
    const run = await runSession(plan, openProcessTransport, "stdio", { loop: "sdk", client, server, boundMs: SESSION_BOUND_MS });
    const o = observe(client, run);
    observations.push(o);
    runs.push(run);
    console.log(observationLine(o));
    // written as each session ends: an interrupt keeps what finished
    writeJsonAtomic(join(inv.dir, "against.json"), { command: options.command, tool: options.tool, args: options.args, observations, runs });
  }
  writeStoreIndex(inv.root);
  // For a CI job: one case per client, failing where the nested request deadlocked
  if (options.junit) {
    const cases = observations.map((o) => ({
      suite: `against ${options.tool}`,
      name: `${o.client}: a nested request inside the callback`,
      ok: o.nested !== "deadlocked" && o.errors.length === 0,
      details: [observationLine(o).replace(/\s+/g, " ")],
    }));
    writeAtomic(options.junit, renderJunit(`lab against --tool ${options.tool}`, cases));
  }
  const stuck = observations.filter((o) => o.nested === "deadlocked").map((o) => o.client);
  const asked = observations.some((o) => o.asked);
  console.log(
    !asked
      ? `against: your server sent no elicitation/create during ${options.tool}: nothing about a callback could be seen`
      : stuck.length
        ? `against: deadlocks ${stuck.join(", ")} when their callbacks nest (the nested reply waited, unread, for the callback; each line says what ended the wait)`
        : "against: no client deadlocked when its callback nested",
  );
  console.log(`evidence in ${shown(inv.dir)}`);
  return observations.length > 0 && observations.every((o) => o.errors.length === 0) ? 0 : 1;
}
