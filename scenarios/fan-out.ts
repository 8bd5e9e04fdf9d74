// Many server-to-client requests at once. A receive loop that awaits each request's handler
// answers them one at a time (python-sdk #2489: 5 sampling calls x 0.5 s took 2.5 s).
import { FAN_OUT_DEFAULT } from "../lab/plan/tool-suite.js";
import { VALID_ANSWER } from "../lab/plan/form.js";
import { ACCEPT_VALID, FORM_CAPABILITY, type Scenario } from "../lab/plan/scenario.js";

/** The fixed time each callback takes before it answers: the stimulus, like a user thinking. */
export const FAN_OUT_CALLBACK_MS = 150;

const scenario: Scenario = {
  name: "fan-out",
  summary: `the tool sends ${FAN_OUT_DEFAULT} elicitation requests at once; each callback takes ${FAN_OUT_CALLBACK_MS} ms`,
  capabilities: FORM_CAPABILITY,
  listToolsFirst: true,
  calls: [
    {
      label: "first",
      tool: "fan_out",
      args: { n: FAN_OUT_DEFAULT },
      callback: { delayMs: FAN_OUT_CALLBACK_MS, answer: { action: "accept", content: { ...VALID_ANSWER } } },
    },
    { label: "recovery", callback: ACCEPT_VALID },
  ],
};

export default scenario;
