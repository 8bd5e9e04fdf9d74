// The fix for the nested shape: read what you need before the call, not from inside the callback.
import { VALID_ANSWER } from "../lab/form.js";
import { reentrancyScenario } from "../lab/scenario.js";

export default reentrancyScenario(
  "prefetch",
  "callback #1 checks the tool names listed before the call; no request from inside the callback",
  (ctx) => (ctx.listedTools.includes("calculate") ? { action: "accept", content: { ...VALID_ANSWER } } : { action: "cancel" }),
);
