// One case = one scenario under one loop model: every transport x repeat as a fresh
// session, each verified against the same hand-written expectation.
import { loadExpectation, expectationPath, type Expectation } from "../check/expectations.js";
import { compareParity, PARITY_RULES, type ParityResult } from "../check/parity.js";
import { pairEvidenceFor, serverSideAllowancesFor } from "../check/http-parity.js";
import type { LoopModel, OnDeadlock } from "../history/receive-loop.js";
import type { Scenario } from "../plan/scenario.js";
import { runSession } from "./session.js";
import { runConclusive } from "./attempts.js";
import { type SessionEvidence } from "../plan/session.js";
import { serverRecordOf } from "../plan/evidence.js";
import { TRANSPORTS } from "../transports/index.js";
import { resultOf } from "../history/frames.js";
import type { Versions } from "../peers/versions.js";
import { columnId, transportProblem } from "../peers/registry.js";
import { TS1_CLIENT, TS1_SERVER } from "../peers/ts1/index.js";
import { sdkText, type ClientPeer, type ServerPeer } from "../plan/peer.js";
import { verify, type Verdict } from "../check/verify.js";
import { evidenceOf } from "../check/evidence-of.js";
import { driverFault } from "../check/driver-fault.js";

export interface RunRecord extends SessionEvidence {
  negotiatedProtocol: string | null;
  verdicts: Verdict[];
  ok: boolean;
  /** a client driver in another process misbehaved: why, in one line (lab/check/driver-fault.ts) */
  fault?: string;
}

export interface ParityVerdict {
  repeat: number;
  /** the transport compared with memory */
  transport: string;
  ok: boolean;
  /** the expectation's reasons for the allowances the comparison needed */
  allowed: string[];
  /** every allowance the expectation names, whether this comparison needed it or not */
  named: { rule: string; why: string; kinds: { kind: string; reason: string }[] }[];
  /** client side: the parent's timeline in memory vs over the other transport */
  result: ParityResult;
  /** server side: memory's server events vs what the child recorded of itself (null: it wrote none) */
  server: ParityResult | null;
}

export interface CaseReport {
  scenario: string;
  summary: string;
  /** the client peer, its loop model (`loop`) and the server peer: the column */
  client: string;
  server: string;
  /** `sdk`/`serial` for ts1 against ts1, else loop.client.server (lab/peers/registry.ts) */
  column: string;
  clientSdk: string;
  serverSdk: string;
  loop: LoopModel;
  /** says plainly what the loop model is */
  loopMeaning: string;
  onDeadlock: OnDeadlock;
  versions: Versions;
  expectedFile: string;
  runs: RunRecord[];
  /** memory vs every other transport, per repeat, when both ran */
  parity: ParityVerdict[];
  ok: boolean;
}

export const LOOP_MEANING: Record<LoopModel, string> = {
  sdk: "the TypeScript SDK exactly as shipped",
  serial: "a model of the MCP Python SDK 1.29.0 client receive loop (not TS SDK behaviour)",
};

/** What the loop model means for this client, in words for run headers. */
export function loopMeaning(client: ClientPeer, loop: LoopModel): string {
  if (client.name === "ts1") return LOOP_MEANING[loop];
  // under `sdk` a peer runs its own loop, which its meaning describes (py-inline is not "as shipped")
  return loop === "sdk" ? client.meaning : `${sdkText(client.sdk)} behind the lab's model of the Python SDK 1.29.0 client loop (not its own behaviour)`;
}

export interface CaseOptions {
  /** default: ts1 */
  client?: ClientPeer;
  /** default: ts1 */
  server?: ServerPeer;
  transports: string[];
  repeat: number;
  onDeadlock: OnDeadlock;
  /** where expectations are read from (default expected/) */
  expectedDir?: string;
  /** each session's bound (default SESSION_BOUND_MS) */
  sessionBoundMs?: number;
  /** called with the case so far after every session, so its evidence is written as it finishes */
  onRun?: (sofar: CaseReport) => void;
}

export async function runCase(
  scenario: Scenario,
  loop: LoopModel,
  options: CaseOptions,
  versions: Versions,
  expectation?: Expectation,
): Promise<CaseReport> {
  const client = options.client ?? TS1_CLIENT;
  const server = options.server ?? TS1_SERVER;
  const pair = { client: client.name, server: server.name };
  expectation ??= loadExpectation(scenario.name, loop, options.onDeadlock, options.expectedDir, pair);
  const transports = options.transports.filter(
    (name) => transportProblem({ client, loop: loop, server }, name, options.transports) === undefined && !scenario.notOver?.transports.includes(name),
  );
  if (transports.length === 0) throw new Error(`${client.name} against ${server.name} can run over none of ${options.transports.join(", ")}`);
  // Builds and set-up checks happen here, once, so none lands inside a session's timeline.
  if (transports.includes("stdio")) {
    if (client.driver.kind === "process") await client.driver.prepare?.();
    await server.child?.prepare?.();
  }
  if (transports.includes("http")) await (client.driver.kind === "process" ? client.driver.prepare?.() : server.http?.prepare?.());
  const runs: RunRecord[] = [];
  for (let repeat = 1; repeat <= options.repeat; repeat++) {
    for (const name of transports) {
      const transport = TRANSPORTS[name];
      if (!transport) throw new Error(`unknown transport ${name}`);
      const bound = options.sessionBoundMs === undefined ? {} : { boundMs: options.sessionBoundMs };
      // repeated while the server was slow: a nested reply or a withdrawal too late (./attempts.ts)
      const evidence = await runConclusive(() => runSession(scenario, transport.open, name, { loop, onDeadlock: options.onDeadlock, client, server, ...bound }, repeat));
      const errors = [...evidence.errors, ...transport.problems(evidence.transportEvidence)];
      // A server in another process kept its own record (lab/transports/stdio.ts serverRecord).
      const verdicts = verify(evidenceOf({ ...evidence, transport: name }, errors), expectation);
      const fault = driverFault(evidence);
      runs.push({
        ...evidence,
        negotiatedProtocol: negotiatedProtocol(evidence),
        verdicts,
        ok: verdicts.every((v) => v.ok),
        ...(fault !== undefined && { fault }),
      });
      options.onRun?.(report());
    }
  }
  return report();

  // The case as far as it ran: parity over the runs so far, ok only when every one held.
  function report(): CaseReport {
    const parity = parityVerdicts(runs, expectation!);
    return {
      scenario: scenario.name,
      summary: scenario.summary,
      client: client.name,
      server: server.name,
      column: columnId({ client: client.name, loop: loop, server: server.name }),
      clientSdk: sdkText(client.sdk),
      serverSdk: sdkText(server.sdk),
      loop,
      loopMeaning: loopMeaning(client, loop),
      onDeadlock: options.onDeadlock,
      versions,
      expectedFile: expectationPath(scenario.name, loop, options.onDeadlock, options.expectedDir, pair),
      runs,
      parity,
      ok: runs.every((r) => r.ok) && parity.every((p) => p.ok),
    };
  }
}

/** The client-side story must be the same in memory and over every other transport (lab/check/parity.ts). */
export function parityVerdicts(runs: RunRecord[], expectation: Expectation): ParityVerdict[] {
  const verdicts: ParityVerdict[] = [];
  for (const memory of runs.filter((r) => r.transport === "memory")) {
    for (const other of runs.filter((r) => r.transport !== "memory" && r.repeat === memory.repeat)) {
      const allows = (expectation.parityAllows ?? []).filter((a) => a.transports === undefined || (a.transports as readonly string[]).includes(other.transport));
      const allowed = allows.flatMap((a) => PARITY_RULES[a.rule]);
      const result = compareParity(memory.events, other.events, allowed, "client", pairEvidenceFor(other.transportEvidence));
      const used = allows.filter((a) => PARITY_RULES[a.rule].some((rule) => result.allowedUsed.includes(rule.reason)));
      // A child that records its own side (the lab's ts1 child) must have written it; one that
      // records nothing (another SDK's server) leaves the server side uncompared.
      const own = serverRecordOf(other.transportEvidence);
      const recordsItself = own !== undefined;
      const child = own ?? null;
      const server = child && compareParity(memory.events, child.events, serverSideAllowancesFor(other.transportEvidence), "server");
      verdicts.push({
        repeat: memory.repeat,
        transport: other.transport,
        ok: result.ok && (recordsItself ? server !== null && server.ok : true),
        allowed: used.map((a) => `${a.rule}: ${a.why}`),
        named: allows.map((a) => ({ rule: a.rule, why: a.why, kinds: PARITY_RULES[a.rule].map((r) => ({ kind: r.kind, reason: r.reason })) })),
        result,
        server,
      });
    }
  }
  return verdicts;
}

/** The protocol version in the server's initialize result, as recorded on the wire. */
export function negotiatedProtocol(evidence: Pick<SessionEvidence, "wire" | "events">): string | null {
  const reply = evidence.wire.find((f) => f.label.frameType === "result" && f.label.method === "initialize");
  const version = reply && resultOf(reply.message)?.protocolVersion;
  if (typeof version === "string") return version;
  // 2026-07-28 has no initialize: a client that negotiated by server/discover records the outcome.
  const said = evidence.events.find((e) => e.kind === "protocol.negotiated")?.detail?.protocolVersion;
  return typeof said === "string" ? said : null;
}
