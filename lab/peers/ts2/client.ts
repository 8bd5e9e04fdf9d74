// Runs one SessionPlan (lab/plan/behaviour.ts) on the TypeScript SDK v2 Client, the way
// lab/session/session.ts runs a scenario on the ts1 Client: connect, optionally list tools, then each
// call in order, with the call's callback Behaviour executed by the handler registered for
// 'elicitation/create'. On 2025-11-25 that handler answers the server's elicitation/create; on
// 2026-07-28 the v2 client calls the same handler locally for each input request of an
// input_required round, then retries the tools/call with the answers.
import type { CreateMessageResult, ElicitResult, ListRootsResult, Transport } from "@modelcontextprotocol/client";
import { SYNTHETIC_COMPLETION, SYNTHETIC_ROOTS, type SessionPlan } from "../../plan/behaviour.js";
import { CallBook } from "../call-book.js";
import { plainCallback, recordedNested, type EventSink, type PlainSession } from "../perform.js";
import { answerForm, boundedSession, runPlanCalls, type FormSession } from "../plan-calls.js";
import { errorInfo as labErrorInfo, errorInfoWith, type ErrorClasses } from "./errors.js";
import { RoundObservingClient, roundObserving } from "./observed-client.js";

/** What the driver takes from the package: the lab's own (2.4.0), or a history release's, loaded from its
 *  folder and checked against lab/peers/ts2/history-client.ts's API table. */
export type Ts2Api = ErrorClasses & { Client: typeof import("@modelcontextprotocol/client").Client; isInputRequiredResult: typeof import("@modelcontextprotocol/client").isInputRequiredResult };

export const TS2_CLIENT_INFO = { name: "reentrancy-lab-client-ts2", version: "0.1.0" };
/** Bounds: every wait has one. */
export const TS2_SESSION_BOUND_MS = 60_000;
export const TS2_CLOSE_BOUND_MS = 10_000;

/** legacy: initialize only (the SDK default); auto: server/discover probe, then initialize if
 *  the server is 2025-era; "2026-07-28": pinned, no fallback. */
export type Negotiation = "legacy" | "auto" | "2026-07-28";

export type { EventSink };

export interface Ts2SessionOutcome {
  negotiation: Negotiation;
  /** undefined when connect failed */
  protocolVersion: string | undefined;
  era: "legacy" | "modern" | undefined;
  /** failures of the session itself (connect failed, bound exceeded), not of the calls */
  errors: string[];
}

const versionNegotiation = (n: Negotiation) => ({ mode: n === "2026-07-28" ? { pin: n } : n });

export async function runTs2Session(
  plan: SessionPlan,
  transport: Transport,
  rec: EventSink,
  options: { negotiation: Negotiation; api?: Ts2Api },
): Promise<Ts2SessionOutcome> {
  const api = options.api;
  const errorInfo = api ? errorInfoWith(api) : labErrorInfo;
  const Observing = api ? roundObserving(api.Client, api.isInputRequiredResult) : RoundObservingClient;
  const client = new Observing(TS2_CLIENT_INFO, {
    capabilities: plan.capabilities,
    versionNegotiation: versionNegotiation(options.negotiation),
  });
  const outcome: Ts2SessionOutcome = { negotiation: options.negotiation, protocolVersion: undefined, era: undefined, errors: [] };
  client.onerror = (error) => rec.event("client", "sdk.error", { detail: { message: error.message } });

  let label = "";
  let listedTools: string[] = [];
  let callbacks = 0;
  const book = new CallBook();
  client.onRound = ({ kind, round, keys }) => rec.event("client", `round.${kind}`, { method: "tools/call", detail: { call: label, round, keys } });
  const nested = recordedNested(rec, errorInfo);
  const nestedRequest = async (method: "tools/list" | "ping", timeout: number) =>
    method === "tools/list"
      ? (await nested(method, () => client.listTools(undefined, { timeout }))).tools.map((t) => t.name)
      : void (await nested(method, () => client.ping({ timeout })));

  const forms: FormSession = { rec, book, calls: plan.calls, listedTools: () => listedTools };
  if (plan.capabilities.elicitation !== undefined) {
    client.setRequestHandler("elicitation/create", async (request, ctx): Promise<ElicitResult> => {
      // On 2026-07-28 the id is the input request's key, not a JSON-RPC id: nothing crossed the wire.
      const embedded = client.getProtocolEra() === "modern";
      const ids = { id: ctx.mcpReq.id, ...(!embedded && { origin: "server" as const }), method: request.method };
      // The handler context's signal: the v2 _oncancel aborts it for any requestId that is not undefined.
      const form = { n: ++callbacks, call: label, ids, ...(embedded && { detail: { embedded } }) };
      return (await answerForm(forms, form, ctx.mcpReq.signal, nestedRequest)) as ElicitResult;
    });
  }

  // Sampling and roots (2025-11-25 only: in 2026-07-28 no server sends them), as the ts1 driver does.
  const plain: PlainSession = { rec, book, nextN: () => ++callbacks, label: () => label, calls: plan.calls, nested: nestedRequest };
  if (plan.capabilities.sampling !== undefined) {
    const answer = plainCallback(plain, "sampling", (): CreateMessageResult => ({ ...SYNTHETIC_COMPLETION, content: { ...SYNTHETIC_COMPLETION.content } }));
    client.setRequestHandler("sampling/createMessage", (request, ctx) => answer(request.method, ctx.mcpReq.id));
  }
  if (plan.capabilities.roots !== undefined) {
    const answer = plainCallback(plain, "roots", (): ListRootsResult => ({ roots: SYNTHETIC_ROOTS.map((r) => ({ ...r })) }));
    client.setRequestHandler("roots/list", (request, ctx) => answer(request.method, ctx.mcpReq.id));
  }

  const session = async () => {
    try {
      await client.connect(transport, { timeout: plan.callTimeoutMs });
    } finally {
      outcome.protocolVersion = client.getNegotiatedProtocolVersion();
      outcome.era = client.getProtocolEra();
      rec.event("client", "protocol.negotiated", {
        detail: { negotiation: options.negotiation, protocolVersion: outcome.protocolVersion ?? null, era: outcome.era ?? null },
      });
    }
    if (plan.listToolsFirst) {
      listedTools = (await client.listTools(undefined, { timeout: plan.callTimeoutMs })).tools.map((t) => t.name);
    }
    await runPlanCalls(plan, book, rec, errorInfo, async (call, signal) => {
      label = call.label;
      // An aborted signal makes the SDK cancel the request: notifications/cancelled, then reject (request()).
      const result = await client.callTool({ name: call.tool, arguments: call.args }, { timeout: plan.callTimeoutMs, ...(signal && { signal }) });
      const isError = result.isError === true;
      // An error result without structuredContent (the legacy shim's failures) keeps its text.
      const text = isError && result.structuredContent === undefined ? textOf(result.content) : undefined;
      return { result: result.structuredContent ?? null, isError, ...(text !== undefined && { text }) };
    });
  };
  const bound = { ms: TS2_SESSION_BOUND_MS, what: `ts2 session ${plan.scenario}` };
  outcome.errors.push(...(await boundedSession(rec, errorInfo, bound, session, { ms: TS2_CLOSE_BOUND_MS, what: "client.close()" }, () => client.close())));
  return outcome;
}

function textOf(content: readonly { type: string; text?: unknown }[] | undefined): string {
  return (content ?? []).map((c) => (c.type === "text" ? String(c.text) : `[${c.type}]`)).join("\n");
}
