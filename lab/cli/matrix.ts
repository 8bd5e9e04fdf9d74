// Which cases a run command means: scenarios x client peers x their loop models x server peers,
// each with the expectation that applies (lab/check/expectations.ts, expectationFor). For one
// scenario the peers default to ts1 and a missing expectation is an error; for `all` every
// available peer is tried and pairings nobody wrote an expectation for are not claimed (listed).
import { expectationFor, type Expectation } from "../check/expectations.js";
import type { LoopModel, OnDeadlock } from "../history/receive-loop.js";
import { CLIENT_PEERS, columnId, SERVER_PEERS, transportProblem, type Column } from "../peers/registry.js";
import type { ClientPeer, ServerPeer } from "../plan/peer.js";
import type { Scenario } from "../plan/scenario.js";
import { UsageError } from "./args.js";

export interface Work {
  scenario: Scenario;
  column: Column;
  expectation: Expectation;
}

/** Something asked for that will not run, and why: printed grouped by reason (lab/cli/not-run.ts). */
export interface NotRun {
  subject: string;
  why: string;
}

export interface Matrix {
  work: Work[];
  /** peers that cannot run here, and pairings a scenario cannot apply to, with the reason */
  unavailable: NotRun[];
  /** pairings with no expectation (only when peers were not named) */
  unclaimed: string[];
}

export interface MatrixRequest {
  scenarios: Scenario[];
  /** named on the command line, or undefined */
  clients: string[] | undefined;
  servers: string[] | undefined;
  loops: LoopModel[];
  transports: string[];
  onDeadlock: OnDeadlock;
  expectedDir: string | undefined;
  all: boolean;
}

function pick<T extends { name: string }>(kind: string, registry: T[], names: string[] | undefined, all: boolean): T[] {
  if (names === undefined) return all ? registry : registry.filter((p) => p.name === "ts1");
  if (names.length === 1 && names[0] === "all") return registry;
  return names.map((name) => {
    const peer = registry.find((p) => p.name === name);
    if (!peer) throw new UsageError(`unknown ${kind} peer '${name}'. Valid: ${registry.map((p) => p.name).join(", ")}, all`);
    return peer;
  });
}

/** The first few of a list and how many more: error lines stay short. */
export function listShort(items: string[], shown = 3): string {
  return items.length <= shown ? items.join(", ") : `${items.slice(0, shown).join(", ")} and ${items.length - shown} more`;
}

export function planMatrix(request: MatrixRequest): Matrix {
  const named = request.clients !== undefined || request.servers !== undefined;
  const strict = !request.all || named;
  const unavailable: NotRun[] = [];
  const usable = <T extends ClientPeer | ServerPeer>(kind: string, peers: T[]) =>
    peers.filter((peer) => {
      const why = peer.unavailable();
      if (why !== undefined) unavailable.push({ subject: `${kind} ${peer.name}`, why });
      return why === undefined;
    });
  const clients = usable("client", pick("client", CLIENT_PEERS, request.clients, request.all));
  const servers = usable("server", pick("server", SERVER_PEERS, request.servers, request.all));
  const work: Work[] = [];
  const unclaimed: string[] = [];
  const refused: NotRun[] = [];
  for (const client of clients) {
    const loops = request.loops.filter((d) => !client.loops.includes(d));
    // said when a loop was asked for by name, or when the client has none of those asked for
    if (loops.length && (request.loops.length === 1 || loops.length === request.loops.length)) unavailable.push({ subject: `client ${client.name}`, why: `has no ${loops.join(" or ")} loop (its loops: ${client.loops.join(", ")})` });
  }
  for (const scenario of request.scenarios) {
    for (const client of clients) {
      for (const loop of request.loops.filter((d) => client.loops.includes(d))) {
        for (const server of servers) {
          const column = { client, loop, server };
          const id = `${scenario.name} ${columnId({ client: client.name, loop, server: server.name })}`;
          // The scenario's subject does not exist in this client's protocol era: not a missing expectation.
          if (scenario.notForEras?.eras.includes(client.era)) {
            refused.push({ subject: id, why: `client ${client.name} speaks ${client.era}: ${scenario.notForEras.why}` });
            continue;
          }
          const problems = request.transports.map((t) => transportProblem(column, t, request.transports) ?? (scenario.notOver?.transports.includes(t) ? `${scenario.name} is not run over ${t}` : undefined));
          if (problems.every((p) => p !== undefined)) {
            // said, never dropped silently; a scenario's own notOver is printed by the caller
            const peerProblems = [...new Set(problems.filter((p, i) => !scenario.notOver?.transports.includes(request.transports[i]!)))];
            if (peerProblems.length) refused.push({ subject: id, why: `cannot run over ${request.transports.join(", ")}: ${peerProblems.join("; ")}` });
            continue;
          }
          const found = expectationFor(scenario.name, loop, { client: client.name, server: server.name }, request.onDeadlock, request.expectedDir);
          if (found) work.push({ scenario, column, expectation: found.expectation });
          else unclaimed.push(id);
        }
      }
    }
  }
  const eraRefused = refused.filter((r) => r.why.includes(" speaks "));
  if (strict && eraRefused.length > 0 && !request.all) throw new UsageError(`not run: ${eraRefused[0]!.subject}: ${eraRefused[0]!.why}`);
  unavailable.push(...refused);
  if (strict && unclaimed.length > 0 && !request.all) {
    throw new UsageError(`no expectation written for ${listShort(unclaimed)} (see README, "Which expectation applies")`);
  }
  if (work.length === 0) {
    // One line, the first cause: a peer or loop that cannot run, else the missing expectations.
    const first = unavailable[0];
    if (first) throw new UsageError(`nothing to run: ${first.subject}: ${first.why}${unavailable.length > 1 ? ` (and ${unavailable.length - 1} more reason(s))` : ""}`);
    if (unclaimed.length) throw new UsageError(`nothing to run: no expectation written for any of the ${unclaimed.length} pairing(s) (${listShort(unclaimed)})${request.expectedDir ? ` in ${request.expectedDir}` : ""}`);
    throw new UsageError("nothing to run: no scenario and peer fit the options given");
  }
  return { work, unavailable, unclaimed };
}
