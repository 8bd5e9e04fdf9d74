// The callback calls back into its own session: while answering elicitation/create it awaits
// tools/list on the same client. Under a receive loop that awaits each inbound request's
// handler, that reply can only be read after the callback returns.
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { VALID_ANSWER } from "../lab/peers/form.js";
import { reentrancyScenario } from "../lab/session/scenario.js";

/** How long the callback waits for its nested tools/list before it gives up. */
export const NESTED_TIMEOUT_MS = 500;

export default reentrancyScenario(
  "nested",
  "callback #1 awaits tools/list on its own session (0.5 s limit), answers cancel if that fails",
  async (ctx) => {
    try {
      const listed = await ctx.nested("tools/list", () => ctx.client.listTools(undefined, { timeout: NESTED_TIMEOUT_MS }));
      const known = listed.tools.some((tool) => tool.name === "calculate");
      return known ? { action: "accept", content: { ...VALID_ANSWER } } : { action: "cancel" };
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      return { action: "cancel" };
    }
  },
);
