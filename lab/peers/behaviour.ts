// What a client's elicitation callback does, as data: every client driver, in any language,
// executes the same plan, so a scenario is written once and runs on every client peer.
// The steps run in this order: wait `delayMs`; send `nested` on the same session; check
// `needTool`; answer `answer`, or `otherwise` when the nested request failed or the tool is
// not known.
import { z } from "zod";

const JsonValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(JsonValue), z.record(z.string(), JsonValue)]),
);

export const Action = z.enum(["accept", "decline", "cancel"]);

/** An answer exactly as the callback returns it; content may be wrong on purpose (contract). */
export const AnswerData = z.strictObject({
  action: Action,
  content: z.record(z.string(), JsonValue).optional(),
});
export type AnswerData = z.infer<typeof AnswerData>;

export const Behaviour = z.strictObject({
  /** the callback's own think time before anything else (a user reading the form) */
  delayMs: z.int().min(0).max(10_000).optional(),
  /** a request sent on the callback's own session, awaited with this limit */
  nested: z
    .strictObject({
      method: z.enum(["tools/list", "ping"]),
      timeoutMs: z.int().min(1).max(60_000),
    })
    .optional(),
  /** answer `otherwise` unless this tool is known: from the nested tools/list if there is one,
   *  else from the listing the session made before its first call */
  needTool: z.string().optional(),
  answer: AnswerData,
  /** the answer when the nested request failed or `needTool` is not known (default cancel) */
  otherwise: AnswerData.optional(),
});
export type Behaviour = z.infer<typeof Behaviour>;

export const CallData = z.strictObject({
  /** `first`, `recovery`, or a contract case name */
  label: z.string().min(1),
  tool: z.string().default("calculate"),
  args: z.record(z.string(), JsonValue).default({}),
  /** what the callback does during this call; absent: the client registers no callback */
  callback: Behaviour.optional(),
});
export type CallData = z.infer<typeof CallData>;

/** A whole session's plan: what a client driver is handed. */
export const SessionPlan = z.strictObject({
  scenario: z.string().min(1),
  /** the client's declared capabilities at initialize; a callback is registered only if
   *  `elicitation` is declared */
  capabilities: z.record(z.string(), JsonValue),
  listToolsFirst: z.boolean(),
  calls: z.array(CallData).min(1),
  /** limit on each tools/call and on the session's own requests */
  callTimeoutMs: z.int().min(1),
});
export type SessionPlan = z.infer<typeof SessionPlan>;
