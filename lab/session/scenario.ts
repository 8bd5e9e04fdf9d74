// What a scenario is: a small object that reads like the lesson.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  ClientCapabilities,
  ClientNotification,
  ClientRequest,
  ElicitRequest,
  ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { VALID_ANSWER } from "../peers/form.js";
import type { EventKind } from "../history/timeline.js";

export interface CallbackContext {
  client: Client;
  /** the SDK's handler context: `extra.sendRequest` sends a request related to this one */
  extra: RequestHandlerExtra<ClientRequest, ClientNotification>;
  request: ElicitRequest;
  /** tool names from the one `tools/list` the session made before its first call */
  listedTools: readonly string[];
  /** Sends a request back into the same session from inside the callback, recording it. */
  nested<T>(method: string, send: () => Promise<T>): Promise<T>;
  note(kind: EventKind, detail: Record<string, unknown>): void;
}

export type Answer = (ctx: CallbackContext) => Promise<ElicitResult> | ElicitResult;

export interface CallPlan {
  /** `first`, `recovery`, or a contract case name */
  label: string;
  tool?: string;
  args?: Record<string, unknown>;
  /** how the client's elicitation callback answers during this call */
  answer: Answer;
}

export interface Scenario {
  name: string;
  /** one line: what the scenario shows */
  summary: string;
  /** the client's declared capabilities; a callback is registered only if elicitation is declared */
  capabilities: ClientCapabilities;
  /** list tools once before the calls (the reentrancy scenarios do) */
  listToolsFirst: boolean;
  calls: CallPlan[];
}

export const FORM_CAPABILITY: ClientCapabilities = { elicitation: { form: {} } };

export const acceptValid: Answer = () => ({ action: "accept", content: { ...VALID_ANSWER } });

/**
 * The reentrancy shape: a fresh session lists tools once, then calls `calculate` twice:
 * `first` with the scenario's callback, `recovery` whose callback always accepts 3 and 7.
 */
export function reentrancyScenario(name: string, summary: string, first: Answer): Scenario {
  return {
    name,
    summary,
    capabilities: FORM_CAPABILITY,
    listToolsFirst: true,
    calls: [
      { label: "first", answer: first },
      { label: "recovery", answer: acceptValid },
    ],
  };
}
