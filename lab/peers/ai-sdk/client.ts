// Runs one SessionPlan (lab/plan/behaviour.ts) on the Vercel AI SDK's MCP client (@ai-sdk/mcp
// 2.0.99, installed apart, run under Node 22 by lab/peers/node22), through its public API only:
// createMCPClient over the session's own transport (a custom MCPTransport: start/send/close,
// dist/index.js:2135-2137, :2407), listTools, toolsFromDefinitions and each tool's execute, and
// onElicitationRequest(ElicitationRequestSchema, handler). Lines cited are
// lab/peers/ai-sdk/node_modules/@ai-sdk/mcp/dist/index.js.
import { createMCPClient, ElicitationRequestSchema, type ElicitResult, type MCPClient, type MCPClientCapabilities, type MCPTransport } from "@ai-sdk/mcp";
import { withBound } from "../../plan/bounds.js";
import type { SessionPlan } from "../../plan/behaviour.js";
import { CallBook } from "../call-book.js";
import { perform, recordedNested, type EventSink } from "../perform.js";

export const AI_SDK_CLIENT_INFO = { clientName: "reentrancy-lab-client-ai-sdk", version: "0.1.0" };
/** Bounds: every wait has one. */
export const AI_SDK_SESSION_BOUND_MS = 60_000;
export const AI_SDK_CLOSE_BOUND_MS = 10_000;

/**
 * What this client cannot do through its public API, said before anything is sent; undefined
 * when it can run the plan. Its request handler answers ping and elicitation/create and nothing
 * else (-32601, :3047-3075), and the MCPClient interface has no ping method (dist/index.d.ts:1172-1254).
 */
export function aiSdkRefusal(plan: SessionPlan): string | undefined {
  // sampling and roots go into initialize as given (:2403, :2470) and the client answers them -32601
  // (:3047-3075): a real run shows a server that asks what the AI SDK does. Nothing else is declared.
  const others = Object.keys(plan.capabilities).filter((c) => !["elicitation", "sampling", "roots"].includes(c));
  if (others.length > 0)
    return `capabilities ${others.join(", ")}: the client answers only ping and elicitation/create (-32601 for any other request, index.js:3047-3075), so declaring them would be a lie`;
  const ping = plan.calls.find((c) => c.callback?.nested?.method === "ping");
  if (ping) return `call ${ping.label}: a nested ping: the public MCPClient has no ping method (dist/index.d.ts:1172-1254)`;
  return undefined;
}

export type ErrorInfo = {
  code: number | null;
  message: string;
  type: string;
};

/** MCPClientError carries the JSON-RPC code of an error reply (:3138-3143), none when raised locally. */
export function errorInfo(error: unknown): ErrorInfo {
  const e = error as { code?: unknown; message?: unknown; name?: unknown } | null;
  return {
    code: typeof e?.code === "number" ? e.code : null,
    message: typeof e?.message === "string" ? e.message : String(error),
    type: typeof e?.name === "string" ? e.name : typeof error,
  };
}

export async function runAiSdkSession(plan: SessionPlan, transport: MCPTransport, rec: EventSink): Promise<string[]> {
  const refused = aiSdkRefusal(plan);
  if (refused) throw new Error(`plan ${plan.scenario} refused: the AI SDK MCP client cannot run it: ${refused}`);
  const errors: string[] = [];
  let label = "";
  let listedTools: string[] = [];
  let callbacks = 0;
  const book = new CallBook();
  const nested = recordedNested(rec, errorInfo);
  let client: MCPClient | undefined;
  try {
    await withBound(
      (async () => {
        // The capabilities go into initialize exactly as given (:2403, :2470): nothing is added. The
        // transport declares no protocol-version discovery, so the client sends initialize (:2459-2475).
        client = await createMCPClient({
          transport,
          ...AI_SDK_CLIENT_INFO,
          capabilities: plan.capabilities as MCPClientCapabilities,
          initializationOptions: { timeout: plan.callTimeoutMs },
          // Every notification from the server lands here as "Unsupported message type" (:2411-2418).
          onUncaughtError: (error) => rec.event("client", "sdk.error", { detail: { message: errorInfo(error).message } }),
        });
        const session = client;
        // The handler is given the request only: no JSON-RPC id and no abort signal (:3096), so
        // callback.entered has no id and watchAbort has nothing to watch.
        if (plan.capabilities.elicitation !== undefined) {
          session.onElicitationRequest(ElicitationRequestSchema, async (request): Promise<ElicitResult> => {
            const n = ++callbacks;
            const call = label;
            const ids = { origin: "server" as const, method: request.method };
            rec.event("client", "callback.entered", { ...ids, detail: { n, call } });
            const leave = book.enter(call);
            try {
              const behaviour = plan.calls.find((c) => c.label === call)?.callback;
              if (!behaviour) throw new Error(`no callback behaviour is planned for an elicitation during '${call}'`);
              const answer = await perform(behaviour, {
                listedTools,
                nested: async (_method, timeout) =>
                  (await nested("tools/list", () => session.listTools({ options: { timeout } }))).tools.map((t) => t.name),
              });
              rec.event("client", "callback.left", { ...ids, detail: { n, call, action: answer.action } });
              return answer;
            } catch (error) {
              rec.event("client", "callback.left", { ...ids, detail: { n, call, error: String(error) } });
              throw error;
            } finally {
              leave();
            }
          });
        }
        if (plan.listToolsFirst) listedTools = (await session.listTools({ options: { timeout: plan.callTimeoutMs } })).tools.map((t) => t.name);
        for (const call of plan.calls) {
          label = call.label;
          rec.event("client", "call.started", { detail: { call: call.label } });
          const giveUp = book.start(call.giveUpAfterMs);
          // execute takes only an abortSignal (:2935-2943, callTool :2808-2822): the plan's limit is
          // a timeout signal; an abort rejects locally and sends nothing (onAbort :2710-2713).
          const limit = AbortSignal.timeout(plan.callTimeoutMs);
          const abortSignal = giveUp ? AbortSignal.any([giveUp, limit]) : limit;
          try {
            const tools = session.toolsFromDefinitions({ tools: [{ name: call.tool, inputSchema: { type: "object" } }] });
            const result = (await tools[call.tool]!.execute!(call.args, { toolCallId: call.label, messages: [], abortSignal, context: {} })) as {
              isError?: boolean;
              structuredContent?: unknown;
              content?: { type: string; text?: unknown }[];
            };
            const isError = result.isError === true;
            const text = isError && result.structuredContent === undefined ? textOf(result.content) : undefined;
            rec.event("client", "tool.result", {
              detail: { call: call.label, result: result.structuredContent ?? null, isError, ...(text !== undefined && { text }) },
            });
          } catch (error) {
            rec.event("client", "tool.result", { detail: { call: call.label, error: errorInfo(error) } });
          } finally {
            book.end();
          }
          if (call.awaitCallbacks) await withBound(book.settled(call.label), plan.callTimeoutMs, `callbacks of call ${call.label}`);
        }
      })(),
      AI_SDK_SESSION_BOUND_MS,
      `ai-sdk session ${plan.scenario}`,
    );
  } catch (error) {
    errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    rec.event("client", "note", { detail: { sessionFailed: errorInfo(error) } });
  } finally {
    try {
      if (client) await withBound(client.close(), AI_SDK_CLOSE_BOUND_MS, "client.close()");
    } catch (error) {
      errors.push(String(error));
    }
  }
  return errors;
}

function textOf(content: readonly { type: string; text?: unknown }[] | undefined): string {
  return (content ?? []).map((c) => (c.type === "text" ? String(c.text) : `[${c.type}]`)).join("\n");
}
