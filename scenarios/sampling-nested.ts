// The reentrancy of nested.ts with sampling instead of a form: while answering
// sampling/createMessage the client's callback awaits tools/list on its own session (0.5 s
// limit), then returns the lab's synthetic completion (no model is called) whatever that gave.
import type { Scenario } from "../lab/plan/scenario.js";
import { NESTED_TIMEOUT_MS } from "./nested.js";

const scenario: Scenario = {
  name: "sampling-nested",
  summary: "the sampling callback awaits tools/list on its own session (0.5 s limit), then returns a synthetic completion",
  capabilities: { sampling: {} },
  listToolsFirst: true,
  calls: [{ label: "first", tool: "summarize", sampling: { delayMs: 0, nested: { method: "tools/list", timeoutMs: NESTED_TIMEOUT_MS } } }],
};

export default scenario;

/** The same call with no nested request: the callback only answers. Not in SCENARIOS (no card row reads it): the
 *  history's samplingAnswer row (lab/cli/history.ts), where over Streamable HTTP mcp before 1.8.1 cannot send the
 *  answer while the call's POST is open (mcp/client/streamable_http.py post_writer awaits each POST inline). */
export const samplingAnswer: Scenario = {
  ...scenario,
  name: "sampling-answer",
  summary: "the sampling callback answers at once with a synthetic completion, during the tool call",
  calls: [{ label: "first", tool: "summarize", sampling: { delayMs: 0 } }],
};
