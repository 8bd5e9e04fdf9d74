// summarize, roots_count and sample_fan_out on the v2 server, with the ts1 shapes
// (lab/peers/ts1/sampling-roots-tools.ts, concurrency-tools.ts). On 2025-11-25 they push
// sampling/createMessage and roots/list as ts1 does; on 2026-07-28 there is no server-to-client
// channel, so each asks in ONE input-required round (inputRequired.createMessage / .listRoots)
// and reads the retried call's inputResponses. A client's error reply ends the tool as data,
// {status: "refused", code}, as ts1's orRefused does.
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  ProtocolError,
  type CallToolResult,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type InputRequest,
  type McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { SAMPLING_FAN_OUT_DEFAULT } from "../../plan/tool-suite.js";
import { isModernRequest, objectArgs, structured, TS2_ELICITATION_TIMEOUT_MS } from "./server-support.js";

/** The same prompts as the ts1 tools (not imported: that module loads the ts1 SDK). */
const PROMPT = "Synthetic: summarize 3 x 7 in one word";
const fanOutPrompt = (i: number, n: number) => `Synthetic: reply with anything (${i + 1} of ${n})`;
const message = (text: string): CreateMessageRequestParams => ({ messages: [{ role: "user", content: { type: "text", text } }], maxTokens: 8 });
/** The input-request keys of a modern round: s1..sn for sampling, roots for roots. */
const sampleKey = (i: number) => `s${i + 1}`;

function declared(mcp: McpServer, ctx: ServerContext, kind: "sampling" | "roots"): boolean {
  const caps = isModernRequest(ctx)
    ? ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
    : mcp.server.getClientCapabilities();
  return caps?.[kind] !== undefined;
}

async function orRefused<T>(ask: Promise<T>, done: (answer: T) => Record<string, unknown>, empty: Record<string, unknown>): Promise<CallToolResult> {
  try {
    return structured(done(await ask));
  } catch (error) {
    if (error instanceof ProtocolError) return structured({ status: "refused", code: error.code, ...empty });
    throw error;
  }
}

const textOf = (result: { content: unknown }) => {
  const content = result.content as { type?: unknown; text?: unknown };
  return content.type === "text" && typeof content.text === "string" ? content.text : null;
};

export function registerTs2RequestTools(mcp: McpServer): void {
  const options = { timeout: TS2_ELICITATION_TIMEOUT_MS };
  const NO_ARGS = objectArgs<Record<string, never>>({});

  mcp.registerTool("summarize", { description: "Asks the client for one sampling completion and returns its text (synthetic: the lab's clients call no model).", inputSchema: NO_ARGS }, async (_args, ctx) => {
    if (!declared(mcp, ctx, "sampling")) return structured({ status: "unsupported", text: null });
    if (!isModernRequest(ctx)) return orRefused(ctx.mcpReq.requestSampling(message(PROMPT), options), (r) => ({ status: "summarized", text: textOf(r), model: r.model }), { text: null });
    const view = inputResponse(ctx.mcpReq.inputResponses, sampleKey(0));
    if (view.kind !== "sampling") return inputRequired({ inputRequests: { [sampleKey(0)]: inputRequired.createMessage(message(PROMPT)) } });
    return structured({ status: "summarized", text: textOf(view.result), model: view.result.model });
  });

  mcp.registerTool("roots_count", { description: "Asks the client for its roots and returns how many it gave.", inputSchema: NO_ARGS }, async (_args, ctx) => {
    if (!declared(mcp, ctx, "roots")) return structured({ status: "unsupported", roots: null });
    if (!isModernRequest(ctx)) return orRefused(mcp.server.listRoots(undefined, { ...options, relatedRequestId: ctx.mcpReq.id }), (r) => ({ status: "counted", roots: r.roots.length }), { roots: null });
    const view = inputResponse(ctx.mcpReq.inputResponses, "roots");
    if (view.kind !== "roots") return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    return structured({ status: "counted", roots: view.roots.length });
  });

  mcp.registerTool(
    "sample_fan_out",
    { description: "Sends n sampling/createMessage requests at once and waits for all of them (synthetic: no model is asked for anything real).", inputSchema: objectArgs<{ n?: number }>({ n: { type: "integer", minimum: 1, maximum: 16 } }) },
    async ({ n = SAMPLING_FAN_OUT_DEFAULT }, ctx) => {
      if (!declared(mcp, ctx, "sampling")) return structured({ status: "unsupported", requests: 0, answered: 0 });
      if (!isModernRequest(ctx)) {
        // Every request leaves before any answer is awaited; every reply is awaited, refusals too.
        const settled = await Promise.allSettled(Array.from({ length: n }, (_, i) => ctx.mcpReq.requestSampling(message(fanOutPrompt(i, n)), options)));
        const answered = settled.filter((s) => s.status === "fulfilled").length;
        const refusal = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
        return orRefused(refusal ? Promise.reject(refusal.reason as Error) : Promise.resolve(answered), () => ({ status: "all_answered", requests: n, answered }), { requests: n, answered });
      }
      const responses = ctx.mcpReq.inputResponses;
      if (responses === undefined) {
        const inputRequests: Record<string, InputRequest> = {};
        for (let i = 0; i < n; i++) inputRequests[sampleKey(i)] = inputRequired.createMessage(message(fanOutPrompt(i, n)));
        return inputRequired({ inputRequests });
      }
      const answered = Array.from({ length: n }, (_, i) => inputResponse(responses, sampleKey(i))).filter((v) => v.kind === "sampling").length;
      return structured({ status: "all_answered", requests: n, answered });
    },
  );
}
