// A ping while a callback runs. A receive loop that awaits each request's handler cannot answer
// the ping until the callback returns (python-sdk #188: a ping waits behind a long handler).
import { VALID_ANSWER } from "../lab/plan/form.js";
import { ACCEPT_VALID, FORM_CAPABILITY, type Scenario } from "../lab/plan/scenario.js";

/** The fixed time the callback takes before it answers. */
export const LIVENESS_CALLBACK_MS = 300;

const scenario: Scenario = {
  name: "liveness",
  summary: `the server pings the client while a ${LIVENESS_CALLBACK_MS} ms callback runs; then a tools/call follows`,
  capabilities: FORM_CAPABILITY,
  listToolsFirst: true,
  calls: [
    {
      label: "first",
      tool: "liveness",
      callback: { delayMs: LIVENESS_CALLBACK_MS, answer: { action: "accept", content: { ...VALID_ANSWER } } },
    },
    { label: "recovery", callback: ACCEPT_VALID },
  ],
};

export default scenario;
