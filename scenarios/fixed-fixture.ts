// Negative control: the callback answers from a fixture and never touches the session.
import { VALID_ANSWER } from "../lab/plan/form.js";
import { reentrancyScenario } from "../lab/plan/scenario.js";

export default reentrancyScenario(
  "fixed-fixture",
  "callback #1 answers accept 3, 7 from a fixture (negative control)",
  { answer: { action: "accept", content: { ...VALID_ANSWER } } },
);
