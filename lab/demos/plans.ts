// The demo's session plans, as data (lab/plan/behaviour.ts): the reentrancy shape of the lab
// (list tools once, then `first` with the scenario's callback and `recovery` that accepts 3, 7)
// for nested, fixed and fan_out. `tool` picks how the server asks: calculate pushes
// elicitation/create (2025-11-25 only), calculate_input returns input_required (both eras).
import { VALID_ANSWER } from "../plan/form.js";
import { SessionPlan, type Behaviour, type CallData } from "../plan/behaviour.js";

export const FORM_CAPABILITY = { elicitation: { form: {} } };
export const PLAN_CALL_TIMEOUT_MS = 15_000;
/** The lab's nested limit (scenarios/nested.ts) and fan-out think time (scenarios/fan-out.ts). */
export const NESTED_TIMEOUT_MS = 500;
export const FAN_OUT_CALLBACK_MS = 50;
export const FAN_OUT_N = 8;

const accept = { action: "accept" as const, content: { ...VALID_ANSWER } };

export const BEHAVIOURS = {
  /** awaits tools/list on its own session (0.5 s), answers only if `calculate` is listed */
  nested: { nested: { method: "tools/list", timeoutMs: NESTED_TIMEOUT_MS }, needTool: "calculate", answer: accept, otherwise: { action: "cancel" } },
  /** answers from a fixture, never touches the session (negative control) */
  fixed: { answer: accept },
  /** a user thinking for 50 ms, then accept */
  thinking: { delayMs: FAN_OUT_CALLBACK_MS, answer: accept },
} satisfies Record<string, Behaviour>;

export type CalculateTool = "calculate" | "calculate_input";

function plan(scenario: string, first: Omit<CallData, "label">, recoveryTool: CalculateTool): SessionPlan {
  return SessionPlan.parse({
    scenario,
    capabilities: FORM_CAPABILITY,
    listToolsFirst: true,
    calls: [
      { label: "first", ...first },
      { label: "recovery", tool: recoveryTool, args: {}, callback: BEHAVIOURS.fixed },
    ],
    callTimeoutMs: PLAN_CALL_TIMEOUT_MS,
  });
}

export const nestedPlan = (tool: CalculateTool): SessionPlan =>
  plan(`nested/${tool}`, { tool, args: {}, callback: BEHAVIOURS.nested }, tool);
export const fixedPlan = (tool: CalculateTool): SessionPlan =>
  plan(`fixed/${tool}`, { tool, args: {}, callback: BEHAVIOURS.fixed }, tool);
export const fanOutPlan = (recoveryTool: CalculateTool): SessionPlan =>
  plan("fan_out", { tool: "fan_out", args: { n: FAN_OUT_N }, callback: BEHAVIOURS.thinking }, recoveryTool);

/** One call with a fixed-answer callback: for the fault tools and single probes. */
export const singleCallPlan = (scenario: string, tool: string, args: Record<string, unknown> = {}): SessionPlan =>
  SessionPlan.parse({
    scenario,
    capabilities: FORM_CAPABILITY,
    listToolsFirst: false,
    calls: [{ label: "first", tool, args, callback: BEHAVIOURS.fixed }, { label: "recovery", tool: "calculate_input", args: {}, callback: BEHAVIOURS.fixed }],
    callTimeoutMs: PLAN_CALL_TIMEOUT_MS,
  });
