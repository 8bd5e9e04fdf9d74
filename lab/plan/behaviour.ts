// What a client's elicitation callback does, as data: every client driver, in any language,
// executes the same plan, so a scenario is written once and runs on every client peer.
// The steps run in this order: wait `delayMs`; send `nested` on the same session; check
// `needTool`; answer `answer`, or `otherwise` when the nested request failed or the tool is
// not known. With `watchAbort`, an abort of the callback ends the steps at once (`otherwise`).
// Every field added after the first drivers is optional: a plan without it means what it meant.
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

/** A request a callback sends on its own session, awaited with this limit. */
export const Nested = z.strictObject({
  method: z.enum(["tools/list", "ping"]),
  timeoutMs: z.int().min(1).max(60_000),
});
export type Nested = z.infer<typeof Nested>;

export const Behaviour = z.strictObject({
  /** the callback's own think time before anything else (a user reading the form) */
  delayMs: z.int().min(0).max(10_000).optional(),
  /** a request sent on the callback's own session, awaited with this limit */
  nested: Nested.optional(),
  /** answer `otherwise` unless this tool is known: from the nested tools/list if there is one,
   *  else from the listing the session made before its first call */
  needTool: z.string().optional(),
  answer: AnswerData,
  /** the answer when the nested request failed or `needTool` is not known (default cancel) */
  otherwise: AnswerData.optional(),
  /**
   * The callback watches the abort signal its SDK hands it for this request (TS: the handler's
   * `extra.signal`; Python: the cancellation of the handler's scope). When it fires while the
   * callback runs, the driver records `callback.aborted` ({n, call, reason}) at that moment, and
   * the callback stops where it is (think time or nested wait) and answers `otherwise`: a form
   * dismissed because its request was withdrawn. Absent: the signal is not watched.
   */
  watchAbort: z.boolean().optional(),
});
export type Behaviour = z.infer<typeof Behaviour>;

/**
 * What the client's sampling callback does for each sampling/createMessage during a call: it
 * thinks for delayMs, then sends `nested` on its own session if planned (nested.sent, then
 * nested.ok or nested.failed, as in an elicitation callback), then returns SYNTHETIC_COMPLETION
 * whatever the nested request gave: the nested outcome is the lesson, the completion only ends
 * the request. No model is ever called.
 */
export const SamplingBehaviour = z.strictObject({ delayMs: z.int().min(0).max(10_000), nested: Nested.optional() });
export type SamplingBehaviour = z.infer<typeof SamplingBehaviour>;
/**
 * What the client's roots callback does for each roots/list during a call: the same steps as the
 * sampling callback, then it returns SYNTHETIC_ROOTS (callback.left records action "accept").
 */
export const RootsBehaviour = SamplingBehaviour;
export type RootsBehaviour = SamplingBehaviour;
export const SYNTHETIC_ROOTS = [
  { uri: "file:///synthetic/lab-root-a", name: "lab-root-a" },
  { uri: "file:///synthetic/lab-root-b", name: "lab-root-b" },
] as const;
export const SYNTHETIC_COMPLETION = {
  role: "assistant",
  content: { type: "text", text: "synthetic completion (no model was called)" },
  model: "lab-synthetic",
  stopReason: "endTurn",
} as const;

export const CallData = z.strictObject({
  /** `first`, `recovery`, or a contract case name */
  label: z.string().min(1),
  tool: z.string().default("calculate"),
  args: z.record(z.string(), JsonValue).default({}),
  /** what the callback does during this call; absent: the client registers no callback */
  callback: Behaviour.optional(),
  /**
   * The client gives up on this tools/call this long after the call's first callback was
   * entered (a person closes the conversation while the form is open), cancelling the request
   * the way its SDK offers (TS: the AbortSignal passed to callTool, which sends
   * notifications/cancelled and rejects; Python: cancel the scope the call runs in). Counted from
   * the form opening, not from the send, so the form is always open when the client gives up,
   * however loaded the machine. The call's tool.result records the error the SDK gave.
   * Absent: the client never gives up (only the plan's callTimeoutMs bounds the call).
   */
  giveUpAfterMs: z.int().min(1).max(60_000).optional(),
  /**
   * After this call ends (result or error), wait until every callback entered during it has
   * returned before the next call or the end of the session; bounded by the plan's
   * callTimeoutMs (a callback still running then fails the session). A call that gives up early leaves its form open: this keeps the next call
   * from overlapping it. Absent: go on at once.
   */
  awaitCallbacks: z.boolean().optional(),
  /** what the client's sampling callback does during this call (capabilities.sampling declared) */
  sampling: SamplingBehaviour.optional(),
  /** what the client's roots callback does during this call (capabilities.roots declared) */
  roots: RootsBehaviour.optional(),
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
