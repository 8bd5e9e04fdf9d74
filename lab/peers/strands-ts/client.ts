// Client peer `strands-ts`: @strands-agents/sdk 1.19.0 (installed apart, package.json here) through
// its public API only: an McpClient on the transport the driver core gives it (adapter.ts, run under
// Node 22: the package declares engines node >=22.0.0), its elicitationCallback
// as the form handler, listTools() for its McpTools and callTool(tool, args, { signal }) for each call.
// Lines cited are lab/peers/strands-ts/node_modules/@strands-agents/sdk/dist/src/mcp/client.js unless said.
import { McpClient, type ElicitationCallback, type ElicitationContext } from "@strands-agents/sdk";
import { EmptyResultSchema, ListToolsResultSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { SessionPlan } from "../../plan/behaviour.js";
import { CallBook } from "../call-book.js";
import { errorInfo as describedError } from "../no-form/session.js";
import { recordedNested, type EventSink } from "../perform.js";
import { answerForm, boundedSession, runPlanCalls, type FormSession } from "../plan-calls.js";

const SESSION_BOUND_MS = 60_000;
const CLOSE_BOUND_MS = 10_000;
/** what listTools() gives and callTool() takes (the index does not export the McpTool type) */
type McpTool = Awaited<ReturnType<McpClient["listTools"]>>[number];
type ToolArgs = Parameters<McpClient["callTool"]>[1];

/** The SDK's error as the lab reads it; a request's own time limit (protocol.js:741 data.timeout) kept as evidence.
 *  By its fields, not instanceof: strands' McpError is its own install's class, not the root's. */
function errorInfo(error: unknown): Record<string, unknown> {
  const timeout = (error as { data?: { timeout?: unknown } } | null)?.data?.timeout;
  return { ...describedError(error), ...(typeof timeout === "number" && { timeoutMs: timeout }) };
}

/** What McpClient's public API cannot do, said before anything is sent; undefined when it can run the plan. */
export function strandsRefusal(plan: SessionPlan): string | undefined {
  const others = Object.keys(plan.capabilities).filter((c) => c !== "elicitation");
  if (others.length > 0)
    return `capabilities ${others.join(", ")}: McpClient builds its Client with elicitation { form, url } only, and only when an elicitationCallback is given (client.js:56-60); McpClientOptions has no sampling or roots handler (client.d.ts:83-106)`;
  return undefined;
}

export async function runStrandsSession(plan: SessionPlan, transport: Transport, rec: EventSink): Promise<string[]> {
  const book = new CallBook();
  const nested = recordedNested(rec, errorInfo);
  let label = "";
  let listedTools: string[] = [];
  let callbacks = 0;
  // Strands passes the SDK's RequestHandlerExtra on as the callback's context (ElicitationContext,
  // types/elicitation.d.ts:6; called at client.js:145-147): its requestId, its abort signal and
  // sendRequest, the session's own request() with this request's id as related (the nested request
  // with the plan's limit; McpClient.listTools() takes none, so the SDK's 60 s would apply).
  const nestedRequest = async (context: ElicitationContext, method: "tools/list" | "ping", timeout: number) =>
    method === "tools/list"
      ? (await nested(method, () => context.sendRequest({ method }, ListToolsResultSchema, { timeout }))).tools.map((t) => t.name)
      : void (await nested(method, () => context.sendRequest({ method }, EmptyResultSchema, { timeout })));
  const forms: FormSession = { rec, book, calls: plan.calls, listedTools: () => listedTools };
  const callback: ElicitationCallback = async (context) => {
    const form = { n: ++callbacks, call: label, ids: { id: context.requestId, origin: "server" as const, method: "elicitation/create" } };
    // the plan's answer as it is, wrong content included (the form-contract cases)
    return (await answerForm(forms, form, context.signal, (method, timeoutMs) => nestedRequest(context, method, timeoutMs))) as ElicitResult;
  };
  // an elicitationCallback declares elicitation { form: {}, url: {} } whatever the plan asks (client.js:60)
  const mcp = new McpClient({ transport, ...(plan.capabilities.elicitation !== undefined && { elicitationCallback: callback }) });
  const session = async () => {
    // listTools() connects on first use (client.js:188-189, :136-159) and gives the McpTools callTool takes
    const tools = new Map((await mcp.listTools()).map((t): [string, McpTool] => [t.name, t]));
    if (plan.listToolsFirst) listedTools = [...tools.keys()];
    await runPlanCalls(plan, book, rec, errorInfo, async (call, giveUp) => {
      label = call.label;
      const tool = tools.get(call.tool);
      if (!tool) throw new Error(`strands-ts: the server listed no tool ${call.tool}`);
      // McpCallToolOptions is { signal } only (client.d.ts:50-53): the SDK's request() sends
      // notifications/cancelled when it fires; its limit is the SDK's default (protocol.js:740)
      const result = (await mcp.callTool(tool, call.args as ToolArgs, giveUp && { signal: giveUp })) as { structuredContent?: unknown; isError?: boolean };
      return { result: result.structuredContent ?? null, isError: result.isError === true };
    });
  };
  // disconnect() closes the Client, then the transport (client.js:165-170)
  return boundedSession(rec, errorInfo, { ms: SESSION_BOUND_MS, what: `strands-ts session ${plan.scenario}` }, session, { ms: CLOSE_BOUND_MS, what: "strands-ts disconnect()" }, () => mcp.disconnect());
}
