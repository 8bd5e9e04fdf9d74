// The careful path of the calculate tools, shared by every tool that asks for the form: SDK
// elicitInput, then the app's own strict zod check; only a valid accept computes. The request
// options (limit, abort signal) are the caller's: that is where the tools differ.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { McpError, type CallToolResult, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { calculateFrom, requestedSchema, type CalculateResult } from "../../plan/form.js";

export const ELICITATION_MESSAGE = "Synthetic arithmetic inputs only: how many units, and the value of one unit?";
/** Bound on the server's wait for the client's answer (every wait has one). */
export const ELICITATION_TIMEOUT_MS = 10_000;

export async function askAndCalculate(server: Server, options: RequestOptions = { timeout: ELICITATION_TIMEOUT_MS }): Promise<CalculateResult> {
  let answer: ElicitResult;
  try {
    answer = await server.elicitInput({ mode: "form", message: ELICITATION_MESSAGE, requestedSchema: requestedSchema() }, options);
  } catch (error) {
    // elicitInput validates accepted content itself and throws -32602 on a mismatch.
    if (error instanceof McpError && error.code === -32602 && /does not match requested schema/.test(error.message)) {
      return { status: "invalid_content", computed: false, value: null, rejectedBy: "sdk" };
    }
    return protocolError(error);
  }
  return calculateFrom(answer);
}

export function protocolError(error: unknown): CalculateResult {
  const code = error instanceof McpError ? error.code : typeof (error as { code?: unknown })?.code === "number" ? (error as { code: number }).code : 0;
  return { status: "protocol_error", computed: false, value: null, code };
}

export function toolResult(result: CalculateResult): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(result) }],
    structuredContent: result as unknown as Record<string, unknown>,
  };
}
