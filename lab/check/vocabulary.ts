// The vocabulary expectations (issue #16): one hand-written file per kind per server
// (expected/contract/vocabulary/<kind>.json for ts1, expected/contract/<server>/vocabulary/<kind>.json
// for the others), one compact entry per case. Each entry becomes an ordinary contract expectation
// (lab/check/contract.ts), checked by the ordinary verifier plus the contract checks, including
// that the layer the run shows is the entry's `refusedBy`.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { contractDir, type ContractExpectation } from "./contract.js";
import { ExpectationError, Json, parseExpectation } from "./expectations.js";
import { LAYERS } from "./layer.js";
import { findKind, type VocabularyCase } from "../plan/vocabulary.js";
import { caseKey, casesOfKind } from "../../scenarios/contract/vocabulary.js";

const Reply = z.union([
  z.strictObject({ result: Json }),
  z.strictObject({ error: z.strictObject({ code: z.int() }) }),
  z.null(),
]);

export const VocabularyCaseExpectation = z.strictObject({
  /** the ask_field result (structuredContent), compared type-aware */
  result: Json,
  /** what the ts1 client put on the wire for the elicitation/create; null: none was sent */
  reply: Reply,
  /** whether the client's callback ran (the client SDK may refuse the request before it) */
  callbackRan: z.boolean(),
  refusedBy: z.enum(LAYERS),
  basis: z.string().min(1),
});
export type VocabularyCaseExpectation = z.infer<typeof VocabularyCaseExpectation>;

export const VocabularyFile = z.strictObject({
  kind: z.string(),
  servers: z.array(z.string()).min(1),
  /** about the file as a whole (e.g. where this server's wire schema comes from) */
  basis: z.string().min(1).optional(),
  /** the exact requestedSchema this server puts on the wire for the kind; null: nothing is sent */
  requestedSchema: Json,
  cases: z.record(z.string(), VocabularyCaseExpectation),
});
export type VocabularyFile = z.infer<typeof VocabularyFile>;

export const vocabularyDir = (expectedDir: string | undefined, server = "ts1") => join(contractDir(expectedDir, server), "vocabulary");
export const vocabularyPath = (kind: string, expectedDir?: string, server = "ts1") => join(vocabularyDir(expectedDir, server), `${kind}.json`);

/** The kinds this server has a vocabulary file for. */
export function kindsWritten(expectedDir: string | undefined, server: string): string[] {
  const dir = vocabularyDir(expectedDir, server);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -".json".length));
}

/** Reads and checks one kind's file: its kind, its server, and exactly one entry per case. */
export function loadVocabularyFile(kind: string, expectedDir: string | undefined, server = "ts1"): VocabularyFile {
  const file = vocabularyPath(kind, expectedDir, server);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new ExpectationError(`${file}: no vocabulary expectation written for kind ${kind} against server ${server}`);
  }
  return checkVocabularyFile(parseExpectation(text, file, VocabularyFile), file, kind, server);
}

export function checkVocabularyFile(doc: VocabularyFile, file: string, kind: string, server: string): VocabularyFile {
  const problem = (what: string) => new ExpectationError(`${file}: ${what}`);
  if (!findKind(kind)) throw problem(`no kind ${kind} in lab/plan/vocabulary.ts`);
  if (doc.kind !== kind) throw problem(`names kind ${doc.kind}, expected ${kind}`);
  if (!doc.servers.includes(server)) throw problem(`written for server ${doc.servers.join(", ")}, not ${server}`);
  const want = casesOfKind(kind).map(caseKey);
  const missing = want.filter((k) => !(k in doc.cases));
  const extra = Object.keys(doc.cases).filter((k) => !want.includes(k));
  if (missing.length) throw problem(`no expectation for case ${missing.map((k) => `${kind}.${k}`).join(", ")}`);
  if (extra.length) throw problem(`unknown case ${extra.map((k) => `${kind}.${k}`).join(", ")} (the cases are in lab/plan/vocabulary.ts)`);
  // The schema decides whether anything is sent, not the answer: every reply agrees with it.
  const unsent = Object.entries(doc.cases).filter(([, c]) => (c.reply === null) !== (doc.requestedSchema === null));
  if (unsent.length) {
    throw problem(`requestedSchema is ${doc.requestedSchema === null ? "null (nothing sent)" : "given (sent)"}, but case ${unsent.map(([k]) => k).join(", ")} says ${doc.requestedSchema === null ? "a reply came" : "no reply came"}`);
  }
  return doc;
}

/** One case's entry as an ordinary contract expectation. */
export function vocabularyExpectation(doc: VocabularyFile, v: VocabularyCase): ContractExpectation {
  const c = doc.cases[caseKey(v)]!;
  const ran = c.callbackRan ? 1 : 0;
  return {
    scenario: v.name,
    loop: "sdk",
    servers: doc.servers,
    basis: c.basis,
    results: { [v.name]: c.result },
    callbacks: c.callbackRan ? [{ call: v.name, action: "accept" }] : [],
    wire: {
      "tools/call": 1,
      "tools/list": 0,
      "elicitation/create": c.reply === null ? 0 : 1,
      "notifications/elicitation/complete": 0,
      "notifications/cancelled": 0,
    },
    nested: [],
    events: { "callback.entered": ran, "callback.left": ran, "elicitation.complete": 0, "sdk.error": 0 },
    order: [],
    ...(doc.requestedSchema !== null && { requestedSchema: doc.requestedSchema }),
    replies: c.reply === null ? [] : [c.reply],
    refusedBy: c.refusedBy,
  };
}

/** Reads the file of a case's kind and returns the case's expectation. */
export function loadVocabularyExpectation(v: VocabularyCase, expectedDir: string | undefined, server = "ts1"): ContractExpectation {
  return vocabularyExpectation(loadVocabularyFile(v.kind, expectedDir, server), v);
}
