// The same reentrancy for roots/list: the server asks the client for its roots during a tool
// call, and the roots callback awaits tools/list on its own session (0.5 s limit) before it
// returns the lab's two synthetic roots whatever that gave.
import type { Scenario } from "../lab/plan/scenario.js";
import { NESTED_TIMEOUT_MS } from "./nested.js";

const scenario: Scenario = {
  name: "roots-nested",
  summary: "the roots callback awaits tools/list on its own session (0.5 s limit), then returns two synthetic roots",
  capabilities: { roots: {} },
  listToolsFirst: true,
  calls: [{ label: "first", tool: "roots_count", roots: { delayMs: 0, nested: { method: "tools/list", timeoutMs: NESTED_TIMEOUT_MS } } }],
};

export default scenario;
