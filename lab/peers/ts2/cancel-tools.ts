// Cancellation across the callback (issue #18) on the v2 server, mirroring lab/peers/ts1/cancel-tools.ts:
//   calculate_linked   passes the call's own signal (ctx.mcpReq.signal) to elicitInput: cancelling
//                      the call withdraws the form (plain `calculate` passes none and leaves it open);
//   calculate_limited  gives its own elicitation a limit: when it passes, the server SDK withdraws it.
// `pingFirst` pings the client first, so the form is not the server's request #0 in a fresh session.
// Both exist on 2025-11-25 only: on 2026-07-28 there is no server-to-client request to withdraw,
// and elicitInput's refusal (before anything is sent) is the tool's answer.
// Unlike the ts1 server, this one records no tool.aborted / tool.finished of its own (its stdio
// child writes no events): the wire shows what the card needs.
import { fromJsonSchema, type McpServer, type ServerContext } from "@modelcontextprotocol/server";
import type { CalculateResult } from "../../plan/form.js";
import { askAndCalculate, type AskOptions } from "./ask-form.js";
import { clientSupportsForm, protocolError, structured, TS2_ELICITATION_TIMEOUT_MS } from "./server-support.js";


const LINKED_ARGS = fromJsonSchema<{ pingFirst?: boolean }>({ type: "object", properties: { pingFirst: { type: "boolean" } } });
const LIMITED_ARGS = fromJsonSchema<{ limitMs: number; pingFirst?: boolean }>({
  type: "object",
  properties: { limitMs: { type: "integer", minimum: 1, maximum: TS2_ELICITATION_TIMEOUT_MS }, pingFirst: { type: "boolean" } },
  required: ["limitMs"],
});

export function registerTs2CancelTools(mcp: McpServer): void {
  const ask = async (ctx: ServerContext, pingFirst: boolean, options: AskOptions): Promise<CalculateResult> => {
    if (!clientSupportsForm(mcp, ctx)) return { status: "unsupported", computed: false, value: null };
    if (pingFirst) {
      try {
        // Server.ping() takes no options: the lab sends its own, bounded.
        await mcp.server.request({ method: "ping" }, { timeout: TS2_ELICITATION_TIMEOUT_MS });
      } catch (error) {
        return protocolError(error);
      }
    }
    return askAndCalculate(ctx, options);
  };

  mcp.registerTool(
    "calculate_linked",
    { description: "calculate, with the call's own abort signal passed to elicitInput (synthetic; 3 x 7 = 21).", inputSchema: LINKED_ARGS },
    // The link: without `signal` nothing ties the elicitation to this call (request(): the abort listener).
    async ({ pingFirst = false }, ctx) => structured(await ask(ctx, pingFirst, { timeout: TS2_ELICITATION_TIMEOUT_MS, signal: ctx.mcpReq.signal })),
  );

  mcp.registerTool(
    "calculate_limited",
    { description: "calculate, waiting for the form at most limitMs; then the server SDK withdraws it (synthetic).", inputSchema: LIMITED_ARGS },
    // The SDK's own timeout: it sends notifications/cancelled for the request, then rejects (SdkError REQUEST_TIMEOUT).
    async ({ limitMs, pingFirst = false }, ctx) => structured(await ask(ctx, pingFirst, { timeout: limitMs })),
  );
}
