// The fix for the nested shape: read what you need before the call, not from inside the callback.
import { VALID_ANSWER } from "../lab/plan/form.js";
import { reentrancyScenario } from "../lab/plan/scenario.js";

export default reentrancyScenario(
  "prefetch",
  "callback #1 checks the tool names listed before the call; no request from inside the callback",
  { needTool: "calculate", answer: { action: "accept", content: { ...VALID_ANSWER } }, otherwise: { action: "cancel" } },
);
