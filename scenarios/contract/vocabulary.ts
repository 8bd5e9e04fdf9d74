// The vocabulary cases of the contract (issue #16): each is a fresh session that calls
// `ask_field { kind }` once; the ts1 client's callback accepts with the case's content. The
// client declares form mode, with applyDefaults where the case says so. Expected results:
// expected/contract/[<server>/]vocabulary/<kind>.json, written by hand.
import { findKind, FIELD_KINDS, VOCABULARY_CASES, type VocabularyCase } from "../../lab/plan/vocabulary.js";
import { FORM_CAPABILITY, type Scenario } from "../../lab/plan/scenario.js";

export const VOCABULARY_GROUP = "vocabulary";
export const KIND_NAMES = FIELD_KINDS.map((k) => k.name);

export function vocabularyScenario(v: VocabularyCase): Scenario {
  if (!findKind(v.kind)) throw new Error(`vocabulary case ${v.name}: no kind ${v.kind}`);
  return {
    name: v.name,
    summary: v.summary,
    capabilities: v.applyDefaults ? { elicitation: { form: { applyDefaults: true } } } : FORM_CAPABILITY,
    listToolsFirst: false,
    calls: [{ label: v.name, tool: "ask_field", args: { kind: v.kind }, callback: { answer: { action: "accept", content: structuredClone(v.content) } } }],
  };
}

/** The cases of one kind, in the order vocabulary.ts lists them. */
export const casesOfKind = (kind: string) => VOCABULARY_CASES.filter((v) => v.kind === kind);

/** `integer.valid` -> `valid`: the key of the case in its kind's expectation file. */
export const caseKey = (v: VocabularyCase) => v.name.slice(v.kind.length + 1);
