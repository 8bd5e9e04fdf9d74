// Client peer `mastra`: @mastra/mcp 2.0.0 (installed apart, lab/peers/mastra/package.json), through
// its public API only: MCPClient with one stdio server (the lab's bridge to the session's transport,
// lab/peers/stdio-bridge.ts: its servers are a command or a URL, dist/client/types.d.ts:298-349),
// pinned to protocolVersion 'legacy' as the scenarios are written for 2025-11-25's server-to-client
// elicitation/create; `inputRequests` as the form handler; listTools() and each tool's execute.
// Lines cited are lab/peers/mastra/node_modules/@mastra/mcp/dist/index.js unless said.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { MCPClient, type MCPInputRequestHandler } from "@mastra/mcp";
import { withBound } from "../../plan/bounds.js";
import type { SessionPlan } from "../../plan/behaviour.js";
import { CallBook } from "../call-book.js";
import { perform, recordedNested, type EventSink } from "../perform.js";
import { openStdioBridge } from "../stdio-bridge.js";
import { errorInfo } from "../no-form/session.js";

export const MASTRA_SESSION_BOUND_MS = 60_000;
const CLOSE_BOUND_MS = 10_000;

/** What MCPClient's public API cannot do, said before anything is sent; undefined when it can run the plan. */
export function mastraRefusal(plan: SessionPlan): string | undefined {
  const others = Object.keys(plan.capabilities).filter((c) => c !== "elicitation");
  if (others.length > 0)
    return `capabilities ${others.join(", ")}: MCPClientCapabilities is Pick<ClientCapabilities, 'elicitation' | 'extensions'>, "the deprecated roots and sampling capabilities are not supported" (dist/client/types.d.ts:102-108), and the Client is built with elicitation and extensions only (index.js:23164-23170)`;
  const ping = plan.calls.find((c) => c.callback?.nested?.method === "ping");
  if (ping) return `call ${ping.label}: a nested ping: MCPClient has no ping method (dist/client/configuration.d.ts:94-855)`;
  return undefined;
}

export async function runMastraSession(plan: SessionPlan, transport: Transport, rec: EventSink): Promise<string[]> {
  const refused = mastraRefusal(plan);
  if (refused) throw new Error(`plan ${plan.scenario} refused: the Mastra MCP client cannot run it: ${refused}`);
  const errors: string[] = [];
  const book = new CallBook();
  const nested = recordedNested(rec, errorInfo);
  let label = "";
  let listedTools: string[] = [];
  let callbacks = 0;
  const bridge = await openStdioBridge(transport);
  let mcp: MCPClient | undefined;
  try {
    await withBound(
      (async () => {
        const client = new MCPClient({
          id: `lab-${process.pid}-${Math.random().toString(36).slice(2)}`,
          servers: {
            lab: {
              command: bridge.command,
              args: bridge.args,
              protocolVersion: "legacy",
              timeout: plan.callTimeoutMs,
              onToolError: "return",
              enableServerLogs: false,
              // Configuring inputRequests declares elicitation ({ form: {} } unless given, :23163-23166);
              // the handler is called from setRequestHandler('elicitation/create') with the request's id
              // as key and its abort signal (:23179-23188).
              ...(plan.capabilities.elicitation !== undefined && {
                capabilities: { elicitation: plan.capabilities.elicitation as never },
                inputRequests: async ({ key, signal }) => {
                  const n = ++callbacks;
                  const call = label;
                  const ids = { id: Number.isNaN(Number(key)) ? key : Number(key), origin: "server" as const, method: "elicitation/create" };
                  rec.event("client", "callback.entered", { ...ids, detail: { n, call } });
                  const leave = book.enter(call);
                  const onAbort = () => rec.event("client", "callback.aborted", { ...ids, detail: { n, call, reason: String(signal.reason) } });
                  signal.addEventListener("abort", onAbort, { once: true });
                  try {
                    const behaviour = plan.calls.find((c) => c.label === call)?.callback;
                    if (!behaviour) throw new Error(`no callback behaviour is planned for an elicitation during '${call}'`);
                    const answer = await perform(behaviour, {
                      listedTools,
                      signal,
                      // MCPClient offers no per-request limit: listTools() takes no options and each server's
                      // tools/list uses its `timeout` (:23862), the plan's call limit; the note says so.
                      nested: async (_method, timeoutMs) => {
                        if (timeoutMs !== plan.callTimeoutMs) rec.event("client", "note", { detail: { nestedLimitMs: plan.callTimeoutMs, plannedMs: timeoutMs, why: "MCPClient.listTools() takes no limit; the server's timeout applies (index.js:23862)" } });
                        return Object.keys(await nested("tools/list", () => client.listTools())).map((n) => n.replace(/^lab_/, ""));
                      },
                    });
                    rec.event("client", "callback.left", { ...ids, detail: { n, call, action: answer.action } });
                    // the plan's answer as it is, wrong content included (the form-contract cases)
                    return answer as Awaited<ReturnType<MCPInputRequestHandler>>;
                  } catch (error) {
                    rec.event("client", "callback.left", { ...ids, detail: { n, call, error: String(error) } });
                    throw error;
                  } finally {
                    signal.removeEventListener("abort", onAbort);
                    leave();
                  }
                },
              }),
            },
          },
        });
        mcp = client;
        // listTools() lists every server's tools, named <server>_<tool> (index.js:23929)
        const tools = await client.listTools();
        if (plan.listToolsFirst) listedTools = Object.keys(tools).map((n) => n.replace(/^lab_/, ""));
        for (const call of plan.calls) {
          label = call.label;
          rec.event("client", "call.started", { detail: { call: call.label } });
          const giveUp = book.start(call.giveUpAfterMs);
          try {
            const tool = tools[`lab_${call.tool}`];
            if (!tool?.execute) throw new Error(`mastra: no tool lab_${call.tool}`);
            // execute passes context.abortSignal to callTool as its signal (:23958-23965)
            const out = (await tool.execute(call.args as never, { ...(giveUp && { abortSignal: giveUp }) } as never)) as Record<string, unknown> | null;
            // onToolError 'return': a structured result comes back as structuredContent (:23984-23990), an error as the raw result
            const isError = out?.isError === true;
            rec.event("client", "tool.result", { detail: { call: call.label, result: (isError ? null : plain(out)) as never, isError } });
          } catch (error) {
            rec.event("client", "tool.result", { detail: { call: call.label, error: errorInfo(error) } });
          } finally {
            book.end();
          }
          if (call.awaitCallbacks) await withBound(book.settled(call.label), plan.callTimeoutMs, `callbacks of call ${call.label}`);
        }
      })(),
      MASTRA_SESSION_BOUND_MS,
      `mastra session ${plan.scenario}`,
    );
  } catch (error) {
    errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    rec.event("client", "note", { detail: { sessionFailed: errorInfo(error) } });
  } finally {
    try {
      if (mcp) await withBound(mcp.disconnect(), CLOSE_BOUND_MS, "mastra disconnect()");
      await bridge.close();
    } catch (error) {
      errors.push(String(error));
    }
  }
  return errors;
}

/** The result as JSON data (Mastra attaches the MCP content to it, :23990). */
function plain(value: unknown): unknown {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown);
}
