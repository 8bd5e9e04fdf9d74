// The ts1 client driver: the real `Client` of @modelcontextprotocol/sdk 1.32.2 runs a scenario
// over the Transport the lab hands it, and records its side of the story where it happens.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CreateMessageRequestSchema, ElicitationCompleteNotificationSchema, ElicitRequestSchema, ListRootsRequestSchema, McpError, type CreateMessageResult, type ElicitResult, type ListRootsResult } from "@modelcontextprotocol/sdk/types.js";
import { SYNTHETIC_COMPLETION, SYNTHETIC_ROOTS } from "../../plan/behaviour.js";
import type { Recorder } from "../../history/timeline.js";
import { withBound } from "../../plan/bounds.js";
import { CALL_TIMEOUT_MS } from "../../plan/bounds.js";
import type { CallbackContext, Scenario } from "../../plan/scenario.js";
import { CallBook } from "../call-book.js";
import { perform, plainCallback, recordedNested, type PlainSession } from "../perform.js";

export const CLIENT_INFO = { name: "reentrancy-lab-client", version: "0.1.0" };

/** The SDK's parts the driver uses: the lab's own release, or an older one's (lab/peers/ts1/history-client.ts),
 *  whose exports a release before elicitation or URL mode lacks. */
export interface Ts1Api {
  Client: typeof Client;
  McpError: typeof McpError;
  CreateMessageRequestSchema: typeof CreateMessageRequestSchema;
  ListRootsRequestSchema: typeof ListRootsRequestSchema;
  ElicitRequestSchema?: typeof ElicitRequestSchema;
  ElicitationCompleteNotificationSchema?: typeof ElicitationCompleteNotificationSchema;
}
const SHIPPED: Ts1Api = { Client, McpError, CreateMessageRequestSchema, ListRootsRequestSchema, ElicitRequestSchema, ElicitationCompleteNotificationSchema };

export async function runTs1Client(scenario: Scenario, transport: Transport, recorder: Recorder, api: Ts1Api = SHIPPED): Promise<void> {
  const { ElicitRequestSchema, ElicitationCompleteNotificationSchema } = api;
  const errorOf = (error: unknown) => errorInfo(error, api.McpError);
  const client = new api.Client(CLIENT_INFO, { capabilities: scenario.capabilities });
  client.onerror = (error) => recorder.event("client", "sdk.error", { detail: { message: error.message } });
  // URL mode: the server says the out-of-band part of an elicitation finished.
  if (ElicitationCompleteNotificationSchema) client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    recorder.event("client", "elicitation.complete", { method: notification.method, detail: { elicitationId: notification.params.elicitationId } });
  });

  let label = "";
  let listedTools: string[] = [];
  let callbacks = 0;
  const book = new CallBook();
  const nested = recordedNested(recorder, errorOf);
  const nestedRequest = async (method: "tools/list" | "ping", timeout: number) =>
    method === "tools/list"
      ? (await nested(method, () => client.listTools(undefined, { timeout }))).tools.map((t) => t.name)
      : void (await nested(method, () => client.ping({ timeout })));
  if (scenario.capabilities.elicitation && ElicitRequestSchema) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra): Promise<ElicitResult> => {
      const n = ++callbacks;
      const call = label;
      const plan = scenario.calls.find((c) => c.label === call);
      const ids = { id: extra.requestId, origin: "server" as const, method: request.method };
      recorder.event("client", "callback.entered", { ...ids, detail: { n, call } });
      const leave = book.enter(call);
      // Recorded the moment the SDK aborts this request's signal, and only while the callback runs.
      const aborted = () => recorder.event("client", "callback.aborted", { ...ids, detail: { n, call, reason: String(extra.signal.reason) } });
      const watch = plan?.callback?.watchAbort === true;
      if (watch && extra.signal.aborted) aborted();
      else if (watch) extra.signal.addEventListener("abort", aborted, { once: true });
      const ctx: CallbackContext = {
        client, extra, request, listedTools,
        nested,
        note: (kind, detail) => recorder.event("client", kind, { detail }),
      };
      try {
        if (!plan || (!plan.code && !plan.callback)) throw new Error(`no callback is planned for an elicitation during '${call}'`);
        const answer = plan.code
          ? await plan.code(ctx)
          : ((await perform(plan.callback!, {
              listedTools,
              signal: extra.signal,
              nested: nestedRequest,
            })) as ElicitResult);
        recorder.event("client", "callback.left", { ...ids, detail: { n, call, action: answer.action } });
        return answer;
      } catch (error) {
        recorder.event("client", "callback.left", { ...ids, detail: { n, call, error: String(error) } });
        throw error;
      } finally {
        extra.signal.removeEventListener("abort", aborted);
        leave();
      }
    });
  }

  // Sampling and roots: the call's own plan, think time and a nested request, then the synthetic answer.
  const plain: PlainSession = { rec: recorder, book, nextN: () => ++callbacks, label: () => label, calls: scenario.calls, nested: nestedRequest };
  if (scenario.capabilities.sampling) {
    const answer = plainCallback(plain, "sampling", (): CreateMessageResult => ({ ...SYNTHETIC_COMPLETION, content: { ...SYNTHETIC_COMPLETION.content } }));
    client.setRequestHandler(api.CreateMessageRequestSchema, (request, extra) => answer(request.method, extra.requestId));
  }
  if (scenario.capabilities.roots) {
    const answer = plainCallback(plain, "roots", (): ListRootsResult => ({ roots: SYNTHETIC_ROOTS.map((r) => ({ ...r })) }));
    client.setRequestHandler(api.ListRootsRequestSchema, (request, extra) => answer(request.method, extra.requestId));
  }

  try {
    await client.connect(transport, { timeout: CALL_TIMEOUT_MS });
    if (scenario.listToolsFirst) listedTools = (await client.listTools(undefined, { timeout: CALL_TIMEOUT_MS })).tools.map((t) => t.name);
    for (const plan of scenario.calls) {
      label = plan.label;
      recorder.event("client", "call.started", { detail: { call: plan.label } });
      const signal = book.start(plan.giveUpAfterMs);
      try {
        // An aborted signal makes the SDK cancel the request (protocol.js request(): notifications/cancelled, then reject).
        const options = { timeout: CALL_TIMEOUT_MS, ...(signal && { signal }) };
        const result = await client.callTool({ name: plan.tool ?? "calculate", arguments: plan.args ?? {} }, undefined, options);
        recorder.event("client", "tool.result", { detail: { call: plan.label, result: result.structuredContent ?? null, isError: result.isError === true } });
      } catch (error) {
        recorder.event("client", "tool.result", { detail: { call: plan.label, error: errorOf(error) } });
      } finally {
        book.end();
      }
      // A call that gave up may leave its form open: the next call waits for it (bounded).
      if (plan.awaitCallbacks) await withBound(book.settled(plan.label), CALL_TIMEOUT_MS, `callbacks of call ${plan.label}`);
    }
  } finally {
    await client.close();
  }
}

export function errorInfo(error: unknown, SdkError: typeof McpError = McpError): { code: number | null; message: string; timeoutMs?: number } {
  // a request timeout carries its configured length (protocol.js:741 { timeout }): what ended the wait, as evidence
  const timeout = error instanceof SdkError ? (error.data as { timeout?: unknown } | undefined)?.timeout : undefined;
  if (error instanceof SdkError) return { code: error.code, message: error.message, ...(typeof timeout === "number" && { timeoutMs: timeout }) };
  return { code: null, message: error instanceof Error ? error.message : String(error) };
}
