// Which cases a run command means: scenarios x client peers x their loop models x server peers,
// each with the expectation that applies (lab/check/expectations.ts, expectationFor). For one
// scenario the peers default to ts1 and a missing expectation is an error; for `all` every
// available peer is tried and pairings nobody wrote an expectation for are not claimed (listed).
import { expectationFor, type Expectation } from "../check/expectations.js";
import type { DispatchModel, OnDeadlock } from "../history/receive-loop.js";
import { CLIENT_PEERS, columnId, SERVER_PEERS, transportProblem, type Column } from "../peers/registry.js";
import type { ClientPeer, ServerPeer } from "../peers/types.js";
import type { Scenario } from "../session/scenario.js";
import { UsageError } from "./args.js";

export interface Work {
  scenario: Scenario;
  column: Column;
  expectation: Expectation;
}

export interface Matrix {
  work: Work[];
  /** peers that cannot run here, and pairings a scenario cannot apply to, with the reason */
  unavailable: string[];
  /** pairings with no expectation (only when peers were not named) */
  unclaimed: string[];
}

export interface MatrixRequest {
  scenarios: Scenario[];
  /** named on the command line, or undefined */
  clients: string[] | undefined;
  servers: string[] | undefined;
  dispatch: DispatchModel[];
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

export function planMatrix(request: MatrixRequest): Matrix {
  const named = request.clients !== undefined || request.servers !== undefined;
  const strict = !request.all || named;
  const unavailable: string[] = [];
  const usable = <T extends ClientPeer | ServerPeer>(kind: string, peers: T[]) =>
    peers.filter((peer) => {
      const why = peer.unavailable();
      if (why !== undefined) unavailable.push(`${kind} ${peer.name}: ${why}`);
      return why === undefined;
    });
  const clients = usable("client", pick("client", CLIENT_PEERS, request.clients, request.all));
  const servers = usable("server", pick("server", SERVER_PEERS, request.servers, request.all));
  const work: Work[] = [];
  const unclaimed: string[] = [];
  const refused: string[] = [];
  for (const scenario of request.scenarios) {
    for (const client of clients) {
      for (const loop of request.dispatch.filter((d) => client.loops.includes(d))) {
        for (const server of servers) {
          const column = { client, loop, server };
          const id = `${scenario.name} ${columnId({ client: client.name, loop, server: server.name })}`;
          // The scenario's subject does not exist in this client's protocol era: not a missing expectation.
          if (scenario.notForEras?.eras.includes(client.era)) {
            refused.push(`${id}: client ${client.name} speaks ${client.era}: ${scenario.notForEras.why}`);
            continue;
          }
          if (request.transports.every((t) => transportProblem(column, t) !== undefined || scenario.notOver?.transports.includes(t))) continue;
          const found = expectationFor(scenario.name, loop, { client: client.name, server: server.name }, request.onDeadlock, request.expectedDir);
          if (found) work.push({ scenario, column, expectation: found.expectation });
          else unclaimed.push(id);
        }
      }
    }
  }
  if (strict && refused.length > 0 && !request.all) throw new UsageError(`not run: ${refused[0]}`);
  unavailable.push(...refused);
  if (strict && unclaimed.length > 0 && !request.all) {
    throw new UsageError(`no expectation written for ${unclaimed.join(", ")} (see README, "Which expectation applies")`);
  }
  if (work.length === 0) throw new UsageError(`nothing to run: ${[...unavailable, ...unclaimed.map((u) => `${u}: no expectation`)].join("; ") || "no pairing fits the transports asked for"}`);
  return { work, unavailable, unclaimed };
}
