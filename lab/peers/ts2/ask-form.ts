// The careful path of the ts2 calculate tools, shared by every tool that asks for the form
// (mirrors lab/peers/ts1/ask-form.ts): the SDK's elicitInput, then the app's own strict zod check;
// only a valid accept computes. The request options (limit, abort signal) are the caller's: that
// is where the tools differ.
import { ProtocolError, type ElicitResult, type ServerContext } from "@modelcontextprotocol/server";
import { calculateFrom, requestedSchema, type CalculateResult } from "../../plan/form.js";
import { protocolError, TS2_ELICITATION_TIMEOUT_MS } from "./server-support.js";

/** The same text as ELICITATION_MESSAGE in lab/peers/ts1/ask-form.ts (not imported: that module loads the ts1 SDK). */
export const TS2_ELICITATION_MESSAGE = "Synthetic arithmetic inputs only: how many units, and the value of one unit?";

export interface AskOptions {
  timeout: number;
  signal?: AbortSignal;
}

export async function askAndCalculate(ctx: ServerContext, options: AskOptions = { timeout: TS2_ELICITATION_TIMEOUT_MS }): Promise<CalculateResult> {
  let answer: ElicitResult;
  try {
    // Deprecated in v2 and refused on a 2026-07-28 request before anything is sent.
    answer = await ctx.mcpReq.elicitInput({ mode: "form", message: TS2_ELICITATION_MESSAGE, requestedSchema: requestedSchema() }, options);
  } catch (error) {
    // elicitInput validates accepted content against requestedSchema and throws -32602 on a mismatch.
    if (error instanceof ProtocolError && error.code === -32602 && /does not match requested schema/.test(error.message)) {
      return { status: "invalid_content", computed: false, value: null, rejectedBy: "sdk" };
    }
    return protocolError(error);
  }
  return calculateFrom(answer);
}
