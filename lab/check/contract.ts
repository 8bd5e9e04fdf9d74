// The form-elicitation contract (scenarios/contract/): what a server does AFTER the client
// answers. A contract expectation is an ordinary expectation (lab/expectations.ts) plus three
// optional fields about the elicitation itself; it is checked by the ordinary verifier plus
// three checks of its own. Every case runs under `sdk`: its callback never calls back into the
// session, so the loop model cannot change anything.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { differences } from "./compare.js";
import { appliesTo, Expectation, ExpectationError, Json, parseExpectation } from "./expectations.js";
import { errorOf, isRequest, paramsOf, resultOf } from "../history/frames.js";
import type { TimelineEvent, WireFrame } from "../history/timeline.js";
import { callbackAnswers, replyTo, resultsOf, verify, type Evidence, type Verdict } from "./verify.js";
import { layerOf, LAYERS } from "./layer.js";

export const ContractExpectation = Expectation.extend({
  loop: z.literal("sdk"),
  nested: Expectation.shape.nested.default([]),
  order: Expectation.shape.order.default([]),
  /** the exact requestedSchema of every form-mode elicitation/create on the wire */
  requestedSchema: Json.optional(),
  /** what the client put on the wire for each elicitation/create, in order: {result} or {error: {code}} */
  replies: z.array(Json).optional(),
  /** elicitationIds of the notifications/elicitation/complete the client recorded, in order */
  completions: z.array(z.string()).optional(),
  /** the layer that refused the answer (lab/check/layer.ts), as the run shows it */
  /** absent: not checked; null: no layer refused or took the answer (layerOf gives none) */
  refusedBy: z.enum(LAYERS).nullable().optional(),
});
export type ContractExpectation = z.infer<typeof ContractExpectation>;

import { CONTRACT_EXPECTED_DIR } from "../paths.js";
export { CONTRACT_EXPECTED_DIR };
export const contractExpectationPath = (name: string, dir = CONTRACT_EXPECTED_DIR) => join(dir, `${name}.json`);

/**
 * Contract expectations live in `contract/` below the expectations folder: the ts1 server's
 * directly there, any other server's in `contract/<server>/` (e.g. expected/contract/py/), each
 * file naming that server in `servers`. The client is always ts1: its fixtures are the cases.
 */
export const contractDir = (expectedDir: string | undefined, server = "ts1") => {
  const base = expectedDir ? join(expectedDir, "contract") : CONTRACT_EXPECTED_DIR;
  return server === "ts1" ? base : join(base, server);
};

export function loadContractExpectation(name: string, dir = CONTRACT_EXPECTED_DIR, server = "ts1"): ContractExpectation {
  const file = contractExpectationPath(name, dir);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new ExpectationError(`${file}: no expectation written for contract case ${name} against server ${server}`);
  }
  const expectation = parseExpectation(text, file, ContractExpectation);
  if (expectation.scenario !== name) throw new ExpectationError(`${file}: names ${expectation.scenario}, expected ${name}`);
  if (!appliesTo(expectation, { client: "ts1", server })) {
    throw new ExpectationError(`${file}: written for server ${(expectation.servers ?? ["ts1"]).join(", ")}, not ${server}`);
  }
  return expectation;
}

const verdict = (check: string, details: string[]): Verdict => ({ check, ok: details.length === 0, details });

export function verifyContract(evidence: Evidence, expected: ContractExpectation): Verdict[] {
  return [...verify(evidence, expected), ...contractChecks(evidence, expected)];
}

/** The checks a contract expectation adds to the ordinary ones. */
export function contractChecks(evidence: Evidence, expected: ContractExpectation): Verdict[] {
  return [
    ...(expected.requestedSchema === undefined
      ? []
      : [verdict("requestedSchema on the wire (exact)", requestedSchemaProblems(evidence.wire, expected.requestedSchema))]),
    ...(expected.replies === undefined
      ? []
      : [verdict("elicitation replies on the wire", differences(expected.replies, elicitationReplies(evidence.wire)))]),
    ...(expected.completions === undefined
      ? []
      : [verdict("URL completions", completionProblems(evidence, expected.completions))]),
    ...(expected.refusedBy === undefined
      ? []
      : [verdict("refused by (layer)", differences(expected.refusedBy, runLayer(evidence) ?? null, "$.refusedBy"))]),
  ];
}

/** The layer that refused the answer in this run (undefined: nothing was refused or taken). */
export function runLayer({ events, wire }: Pick<Evidence, "events" | "wire">, call?: string) {
  const results = resultsOf(events);
  return layerOf(results[call ?? Object.keys(results)[0] ?? ""], elicitationReplies(wire));
}

const params = (f: WireFrame) => paramsOf(f.message);

function elicitationRequests(wire: WireFrame[]): WireFrame[] {
  return wire.filter((f) => f.from === "server" && isRequest(f.label) && f.label.method === "elicitation/create");
}

/** The client's reply to each elicitation/create, as {result} or {error: {code}}; null if none. */
export function elicitationReplies(wire: WireFrame[]): unknown[] {
  return elicitationRequests(wire).map((request) => {
    const reply = replyTo(wire, request);
    if (!reply) return null;
    const error = errorOf(reply.message);
    return error !== undefined ? { error: { code: error.code } } : { result: resultOf(reply.message) };
  });
}

export function requestedSchemaProblems(wire: WireFrame[], expected: unknown): string[] {
  const forms = elicitationRequests(wire).filter((f) => (params(f)?.mode ?? "form") === "form");
  if (forms.length === 0) return ["no form-mode elicitation/create on the wire to check"];
  return forms.flatMap((f) => differences(expected, params(f)?.requestedSchema, `$.frame${f.index}.requestedSchema`));
}

/**
 * Each notifications/elicitation/complete names the elicitationId of a URL-mode elicitation/create
 * that the client had already answered, and the client recorded exactly the expected ids.
 */
export function completionProblems({ events, wire }: Evidence, expected: string[]): string[] {
  const out = differences(expected, completionsRecorded(events), "$.recorded");
  const urlRequests = elicitationRequests(wire).filter((f) => params(f)?.mode === "url");
  for (const note of wire.filter((f) => f.label.frameType === "notification" && f.label.method === "notifications/elicitation/complete")) {
    const id = params(note)?.elicitationId;
    const request = urlRequests.find((f) => params(f)?.elicitationId === id);
    const reply = request && replyTo(wire, request);
    if (note.from !== "server") out.push(`frame ${note.index}: completion sent by the ${note.from}`);
    if (!request) out.push(`frame ${note.index}: completion for ${String(id)}, which no URL-mode elicitation/create asked for`);
    else if (!reply || reply.index > note.index) out.push(`frame ${note.index}: completion for ${String(id)} before the client answered the request`);
  }
  return out;
}

export function completionsRecorded(events: TimelineEvent[]): unknown[] {
  return events.filter((e) => e.side === "client" && e.kind === "elicitation.complete").map((e) => e.detail?.elicitationId);
}

/** One row of the contract table: what the callback said, what came back, who refused. */
export function contractRow(name: string, run: Pick<Evidence, "events" | "wire">, server = "ts1") {
  const result = resultsOf(run.events)[name] as Record<string, unknown> | undefined;
  const answer = callbackAnswers(run.events)[0];
  const replies = elicitationReplies(run.wire) as ({ error?: { code?: unknown } } | null)[];
  return {
    action: answer ? String(answer.action) : "-",
    status: String(result?.status ?? result?.error ?? "-"),
    computed: result?.computed,
    // the calculate tool's value, or the content ask_field's app finally holds
    value: result && "value" in result ? result.value : result?.content,
    refusedBy: layerOf(result, replies) ?? "-",
    layer: how(result, replies, server),
  };
}

/** Each server's own content checks, in words: the SDK's (rejectedBy "sdk") and the app's. */
const CHECKS: Record<string, { sdk: string; app: string }> = {
  ts1: { sdk: "server SDK: elicitInput (JSON Schema)", app: "app: zod" },
  py: { sdk: "server SDK: ctx.elicit", app: "app: strict check" },
  ts2: { sdk: "server SDK: elicitInput (JSON Schema)", app: "app: zod" },
};

function how(result: Record<string, unknown> | undefined, replies: ({ error?: { code?: unknown } } | null)[], server: string): string {
  const checks = CHECKS[server] ?? { sdk: "server SDK", app: "app" };
  if (result?.rejectedBy === "sdk") return checks.sdk;
  if (result?.rejectedBy === "app") return checks.app;
  const code = replies.find((r) => r?.error)?.error?.code;
  if (code === -32601) return "client SDK: no handler (-32601)";
  if (code !== undefined) return `client SDK: refused (${String(code)})`;
  if (result?.status === "unsupported") return "app guard: nothing sent";
  if (result?.status === "not_sent") return `server SDK: ${String(result.reason ?? "refused")}`;
  return "-";
}
