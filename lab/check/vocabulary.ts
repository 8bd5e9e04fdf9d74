// The vocabulary expectations (issue #16): one hand-written file per kind per server
// (expected/contract/vocabulary/<kind>.json for ts1, expected/contract/<server>/vocabulary/<kind>.json
// for the others), one compact entry per case. The client is ts1 unless a file says otherwise: another
// client's files sit beside them in vocabulary-<client>/ (issue #26: what the Go client refuses itself). Each entry becomes an ordinary contract expectation
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
  /** what the client put on the wire for the elicitation/create; null: none was sent */
  reply: Reply,
  /** whether the client's callback ran (the client SDK may refuse the request before it) */
  callbackRan: z.boolean(),
  /** null: no layer refused the answer or took it (layerOf gives none), e.g. an accept that arrived without content */
  refusedBy: z.enum(LAYERS).nullable(),
  basis: z.string().min(1),
});
export type VocabularyCaseExpectation = z.infer<typeof VocabularyCaseExpectation>;

export const VocabularyFile = z.strictObject({
  kind: z.string(),
  /** the client peers the file speaks for; absent: ts1 */
  clients: z.array(z.string()).min(1).optional(),
  servers: z.array(z.string()).min(1),
  /** about the file as a whole (e.g. where this server's wire schema comes from) */
  basis: z.string().min(1).optional(),
  /** the exact requestedSchema this server puts on the wire for the kind; null: nothing is sent */
  requestedSchema: Json,
  cases: z.record(z.string(), VocabularyCaseExpectation),
});
export type VocabularyFile = z.infer<typeof VocabularyFile>;

export const vocabularyDir = (expectedDir: string | undefined, server = "ts1", client = "ts1") =>
  join(contractDir(expectedDir, server), client === "ts1" ? "vocabulary" : `vocabulary-${client}`);
export const vocabularyPath = (kind: string, expectedDir?: string, server = "ts1", client = "ts1") => join(vocabularyDir(expectedDir, server, client), `${kind}.json`);

/** The kinds this server has a vocabulary file for. */
export function kindsWritten(expectedDir: string | undefined, server: string, client = "ts1"): string[] {
  const dir = vocabularyDir(expectedDir, server, client);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -".json".length));
}

/** Reads and checks one kind's file: its kind, its server, and exactly one entry per case. */
export function loadVocabularyFile(kind: string, expectedDir: string | undefined, server = "ts1", client = "ts1"): VocabularyFile {
  const file = vocabularyPath(kind, expectedDir, server, client);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new ExpectationError(`${file}: no vocabulary expectation written for kind ${kind} against server ${server}${client === "ts1" ? "" : ` with client ${client}`}`);
  }
  return checkVocabularyFile(parseExpectation(text, file, VocabularyFile), file, kind, server, client);
}

export function checkVocabularyFile(doc: VocabularyFile, file: string, kind: string, server: string, client = "ts1"): VocabularyFile {
  const problem = (what: string) => new ExpectationError(`${file}: ${what}`);
  if (!findKind(kind)) throw problem(`no kind ${kind} in lab/plan/vocabulary.ts`);
  if (doc.kind !== kind) throw problem(`names kind ${doc.kind}, expected ${kind}`);
  if (!doc.servers.includes(server)) throw problem(`written for server ${doc.servers.join(", ")}, not ${server}`);
  const clients = doc.clients ?? ["ts1"];
  if (!clients.includes(client)) throw problem(`written for client ${clients.join(", ")}, not ${client}`);
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
