// The report card's form-contract row: seven of the contract's cases (those that need only a form
// capability and a plain answer) as seven calls in ONE session, so every client peer can run them
// (the answers are data) against every server peer at the cost of one session per pairing. The
// full contract (19 cases and the whole vocabulary, ts1 client) is `tsx lab/run.ts contract`.
import { FORM_CAPABILITY, type Scenario } from "../../lab/plan/scenario.js";
import type { AnswerData } from "../../lab/plan/behaviour.js";
import { findContractCase } from "./index.js";

/** The cases, in call order; only the first may compute (3 x 7 = 21). */
export const CARD_CONTRACT_CASES = [
  "accept_valid",
  "decline",
  "cancel",
  "decline_with_spurious_data",
  "accept_missing_field",
  "accept_wrong_type",
  "accept_out_of_range",
] as const;

export const FORM_CONTRACT_SCENARIO: Scenario = {
  name: "form-contract",
  summary: `${CARD_CONTRACT_CASES.length} contract cases as calls of one session: only the valid accept computes`,
  capabilities: FORM_CAPABILITY,
  listToolsFirst: false,
  calls: CARD_CONTRACT_CASES.map((name) => {
    const c = findContractCase(name)!;
    return { label: name, args: { policy: c.policy }, callback: { answer: structuredClone(c.answer) as AnswerData } };
  }),
};
