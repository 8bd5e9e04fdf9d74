// The form-elicitation contract: what a server must do AFTER the client answers. Each case is a
// fresh session that calls `calculate` once (no tools/list first); the client's callback answers
// from the fixed fixture below. Expected results: expected/contract/<case>.json, written by hand.
// The callback never calls back into the session, so the loop model cannot matter: the cases
// run under `sdk` (the TS SDK as shipped).
import type { ClientCapabilities, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { type Policy } from "../../lab/plan/tool-suite.js";
import { VALID_ANSWER } from "../../lab/plan/form.js";
import type { AnswerData } from "../../lab/plan/behaviour.js";
import { FORM_CAPABILITY, type Scenario } from "../../lab/plan/scenario.js";

export interface ContractCase {
  name: string;
  summary: string;
  policy: Policy;
  /** what the client declares at initialize; a callback is registered only if it names elicitation */
  capabilities: ClientCapabilities;
  /** the fixture the callback answers with; null: the client has no callback at all */
  answer: ElicitResult | null;
}

const NONE: ClientCapabilities = {};
const LEGACY: ClientCapabilities = { elicitation: {} };
const URL_ONLY: ClientCapabilities = { elicitation: { url: {} } };
const FORM_AND_URL: ClientCapabilities = { elicitation: { form: {}, url: {} } };

const valid = { ...VALID_ANSWER };
const accept = (content?: ElicitResult["content"]): ElicitResult => ({ action: "accept", ...(content && { content }) });

export const CONTRACT_CASES: readonly ContractCase[] = [
  { name: "accept_valid", summary: "accept 3, 7: the only case that computes (21)", policy: "validated", capabilities: FORM_CAPABILITY, answer: accept(valid) },
  { name: "accept_missing_field", summary: "accept without unit_value", policy: "validated", capabilities: FORM_CAPABILITY, answer: accept({ units: 3 }) },
  { name: "accept_no_content", summary: "accept with no content at all", policy: "validated", capabilities: FORM_CAPABILITY, answer: accept() },
  { name: "accept_wrong_type", summary: 'accept with units as the string "3"', policy: "validated", capabilities: FORM_CAPABILITY, answer: accept({ units: "3", unit_value: 7 }) },
  { name: "accept_out_of_range", summary: "accept with units 11 (allowed 1..10)", policy: "validated", capabilities: FORM_CAPABILITY, answer: accept({ units: 11, unit_value: 7 }) },
  { name: "accept_extra_field", summary: "accept 3, 7 plus a third key the schema forbids", policy: "validated", capabilities: FORM_CAPABILITY, answer: accept({ ...valid, note: "synthetic" }) },
  {
    name: "accept_nested_value",
    summary: "accept with an object where a number belongs: refused by the client SDK itself",
    policy: "validated",
    capabilities: FORM_CAPABILITY,
    // Not a valid ElicitResult on purpose: content values may only be string|number|boolean|string[].
    answer: { action: "accept", content: { units: { value: 3 }, unit_value: 7 } } as unknown as ElicitResult,
  },
  { name: "decline", summary: "decline", policy: "validated", capabilities: FORM_CAPABILITY, answer: { action: "decline" } },
  { name: "cancel", summary: "cancel", policy: "validated", capabilities: FORM_CAPABILITY, answer: { action: "cancel" } },
  { name: "decline_with_spurious_data", summary: "decline carrying valid content: never computed", policy: "validated", capabilities: FORM_CAPABILITY, answer: { action: "decline", content: valid } },
  { name: "cancel_with_spurious_data", summary: "cancel carrying valid content: never computed", policy: "validated", capabilities: FORM_CAPABILITY, answer: { action: "cancel", content: valid } },
  { name: "raw_accept_missing_field", summary: "low-level request: the raw answer comes back unvalidated, never computed", policy: "raw", capabilities: FORM_CAPABILITY, answer: accept({ units: 3 }) },
  { name: "unsupported_guarded", summary: "client declares no elicitation: unsupported, nothing sent", policy: "validated", capabilities: NONE, answer: null },
  { name: "unsupported_unchecked_diagnostic", summary: "guard skipped on purpose, client declares no elicitation: what comes back", policy: "unchecked", capabilities: NONE, answer: null },
  { name: "url_only_unchecked_diagnostic", summary: "guard skipped on purpose, client declares only url: what comes back", policy: "unchecked", capabilities: URL_ONLY, answer: accept(valid) },
  { name: "legacy_empty_capability", summary: "client declares elicitation: {} (legacy form); the callback declines", policy: "validated", capabilities: LEGACY, answer: { action: "decline" } },
  { name: "url_only_capability", summary: "client declares only url: no form request is sent", policy: "validated", capabilities: URL_ONLY, answer: accept(valid) },
  { name: "url", summary: "URL mode: accept means only that the user agreed to open the link; completion notified", policy: "url", capabilities: FORM_AND_URL, answer: accept() },
  { name: "url_unsupported", summary: "URL mode, client declares form only: refused before anything is sent", policy: "url", capabilities: FORM_CAPABILITY, answer: accept() },
];

export function findContractCase(name: string): ContractCase | undefined {
  return CONTRACT_CASES.find((c) => c.name === name);
}

/** A case as a scenario: one call, labelled with the case name, answered from the fixture. */
export function contractScenario(c: ContractCase): Scenario {
  return {
    name: c.name,
    summary: c.summary,
    capabilities: c.capabilities as Scenario["capabilities"],
    listToolsFirst: false,
    calls: [{ label: c.name, args: { policy: c.policy }, ...(c.answer && { callback: { answer: structuredClone(c.answer) as AnswerData } }) }],
  };
}
