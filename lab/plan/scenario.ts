// What a scenario is: a small object that reads like the lesson. Its callbacks are data
// (lab/plan/behaviour.ts) that every client driver executes, in any language. A test may
// still hand the ts1 driver a callback written in TypeScript (`code`): only ts1 runs those.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ClientNotification, ClientRequest, ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { VALID_ANSWER } from "./form.js";
import type { Behaviour, RootsBehaviour, SamplingBehaviour, SessionPlan } from "./behaviour.js";
import type { EventKind } from "../history/timeline.js";

export interface CallbackContext {
  client: Client;
  /** the SDK's handler context: `extra.sendRequest` sends a request related to this one */
  extra: RequestHandlerExtra<ClientRequest, ClientNotification>;
  request: ElicitRequest;
  listedTools: readonly string[];
  /** Sends a request back into the same session from inside the callback, recording it. */
  nested<T>(method: string, send: () => Promise<T>): Promise<T>;
  note(kind: EventKind, detail: Record<string, unknown>): void;
}

/** A callback in TypeScript, for tests of the ts1 SDK itself. */
export type Answer = (ctx: CallbackContext) => Promise<ElicitResult> | ElicitResult;

export interface CallPlan {
  /** `first`, `recovery`, or a contract case name */
  label: string;
  tool?: string;
  args?: Record<string, unknown>;
  /** what the client's elicitation callback does during this call */
  callback?: Behaviour;
  /** ts1 only: a callback in code, used instead of `callback` */
  code?: Answer;
  /** give up on this tools/call this long after its form opened (lab/plan/behaviour.ts CallData) */
  giveUpAfterMs?: number;
  /** wait for this call's callbacks before going on (lab/plan/behaviour.ts CallData) */
  awaitCallbacks?: boolean;
  /** what the client's sampling callback does during this call (lab/plan/behaviour.ts CallData) */
  sampling?: SamplingBehaviour;
  /** what the client's roots callback does during this call (lab/plan/behaviour.ts CallData) */
  roots?: RootsBehaviour;
}

export interface Scenario {
  name: string;
  /** one line: what the scenario shows */
  summary: string;
  /** the client's declared capabilities; a callback is registered only if elicitation is declared */
  capabilities: SessionPlan["capabilities"];
  /** list tools once before the calls (the reentrancy scenarios do) */
  listToolsFirst: boolean;
  calls: CallPlan[];
  /** transports this scenario is not claimed over, and why (runs skip them and say so) */
  notOver?: { transports: string[]; why: string };
  /** client protocol eras (ClientPeer.era) this scenario cannot apply to, and why: a run naming
   *  such a client is refused with that line; `all` lists the pairing as not run */
  notForEras?: { eras: string[]; why: string };
}

export const FORM_CAPABILITY = { elicitation: { form: {} } };

export const ACCEPT_VALID: Behaviour = { answer: { action: "accept", content: { ...VALID_ANSWER } } };

/**
 * The reentrancy shape: a fresh session lists tools once, then calls `calculate` twice:
 * `first` with the scenario's callback, `recovery` whose callback always accepts 3 and 7.
 */
export function reentrancyScenario(name: string, summary: string, first: Behaviour): Scenario {
  return {
    name,
    summary,
    capabilities: FORM_CAPABILITY,
    listToolsFirst: true,
    calls: [
      { label: "first", callback: first },
      { label: "recovery", callback: ACCEPT_VALID },
    ],
  };
}

export class NotData extends Error {}

/** The plan a driver in another process is handed; refused if a callback is code. */
export function sessionPlan(scenario: Scenario, callTimeoutMs: number): SessionPlan {
  return {
    scenario: scenario.name,
    capabilities: scenario.capabilities,
    listToolsFirst: scenario.listToolsFirst,
    callTimeoutMs,
    calls: scenario.calls.map((call) => {
      if (call.code) throw new NotData(`scenario ${scenario.name}: call ${call.label} has a callback in code, which only the ts1 client runs`);
      return {
        label: call.label,
        tool: call.tool ?? "calculate",
        args: call.args ?? {},
        ...(call.callback && { callback: call.callback }),
        ...(call.giveUpAfterMs !== undefined && { giveUpAfterMs: call.giveUpAfterMs }),
        ...(call.awaitCallbacks !== undefined && { awaitCallbacks: call.awaitCallbacks }),
        ...(call.sampling && { sampling: call.sampling }),
        ...(call.roots && { roots: call.roots }),
      };
    }),
  };
}
