// The callback calls back into its own session: while answering elicitation/create it awaits
// tools/list on the same client. Under a receive loop that awaits each inbound request's
// handler, that reply can only be read after the callback returns.
import { VALID_ANSWER } from "../lab/plan/form.js";
import { reentrancyScenario } from "../lab/plan/scenario.js";

/** How long the callback waits for its nested tools/list before it gives up. */
export const NESTED_TIMEOUT_MS = 500;

export default reentrancyScenario(
  "nested",
  "callback #1 awaits tools/list on its own session (0.5 s limit), answers cancel if that fails",
  {
    nested: { method: "tools/list", timeoutMs: NESTED_TIMEOUT_MS },
    needTool: "calculate",
    answer: { action: "accept", content: { ...VALID_ANSWER } },
    otherwise: { action: "cancel" },
  },
);
