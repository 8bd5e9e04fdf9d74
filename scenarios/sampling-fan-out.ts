// python-sdk #2489's shape: the server sends five sampling/createMessage requests at once and the
// client's sampling callback thinks 0.5 s before returning a synthetic completion (no model is
// called). A loop that awaits each inbound request's handler answers them one after another.
import { SAMPLING_FAN_OUT_DEFAULT } from "../lab/plan/tool-suite.js";
import type { Scenario } from "../lab/plan/scenario.js";

export const SAMPLING_CALLBACK_MS = 500;

const scenario: Scenario = {
  name: "sampling-fan-out",
  summary: `${SAMPLING_FAN_OUT_DEFAULT} sampling requests at once, each callback ${SAMPLING_CALLBACK_MS} ms (python-sdk #2489)`,
  capabilities: { sampling: {} },
  listToolsFirst: false,
  calls: [{ label: "first", tool: "sample_fan_out", args: { n: SAMPLING_FAN_OUT_DEFAULT }, sampling: { delayMs: SAMPLING_CALLBACK_MS } }],
};

export default scenario;
