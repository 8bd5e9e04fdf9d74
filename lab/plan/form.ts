// The form the calculate tool asks for, and the result it returns. One zod schema is the
// source of both the app's strict check and the requestedSchema sent on the wire.
import type { ElicitRequestFormParams } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

export const CalculateForm = z.strictObject({
  units: z.int().min(1).max(10).describe("How many units (1..10)"),
  unit_value: z.int().min(1).max(100).describe("Value of one unit (1..100)"),
});
export type CalculateForm = z.infer<typeof CalculateForm>;

/** The restricted JSON Schema for elicitation/create, derived from the zod form: one object, made
 *  once and frozen (nothing may change it), as a server would keep its form's schema. The SDKs'
 *  ajv compiles a schema once per object, so a session that asks often (fan-out, the contract)
 *  asks with one compiled form. */
export function requestedSchema(): ElicitRequestFormParams["requestedSchema"] {
  return (schemaOnce ??= deepFreeze(derivedSchema()));
}

let schemaOnce: ElicitRequestFormParams["requestedSchema"] | undefined;

function derivedSchema(): ElicitRequestFormParams["requestedSchema"] {
  // ajv in the SDK compiles draft-07 by default; a $schema naming 2020-12 would not resolve.
  const { $schema: _dropped, ...schema } = z.toJSONSchema(CalculateForm, { target: "draft-7" });
  // The JSON Schema keeps additionalProperties:false, which the SDK's own validator enforces.
  return schema as ElicitRequestFormParams["requestedSchema"];
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}

export const VALID_ANSWER = { units: 3, unit_value: 7 } as const;

/**
 * The careful path's reading of an answer its SDK let through (every TypeScript server peer):
 * decline and cancel end the call, even when content came along with them; then the app keeps its
 * own strict check whatever the SDK did (no coercion, no extra keys); only a valid accept computes.
 */
export function calculateFrom(answer: { action: string; content?: Record<string, unknown> }): CalculateResult {
  if (answer.action === "decline") return { status: "declined", computed: false, value: null };
  if (answer.action === "cancel") return { status: "cancelled", computed: false, value: null };
  if (answer.content === undefined) return { status: "invalid_response", computed: false, value: null };
  const form = CalculateForm.safeParse(answer.content);
  if (!form.success) return { status: "invalid_content", computed: false, value: null, rejectedBy: "app" };
  return { status: "calculated", computed: true, value: form.data.units * form.data.unit_value };
}

export type CalculateStatus =
  | "calculated" // a valid accept: the only status that computes
  | "declined"
  | "cancelled"
  | "invalid_content" // accepted content failed a check (see rejectedBy)
  | "invalid_response" // accept with no content: nothing to compute from
  | "unsupported" // the client declared no form elicitation; nothing was sent
  | "protocol_error" // the elicitation request itself failed (see code)
  | "raw_response" // diagnostic: the raw answer, never computed
  | "url_accepted"; // URL mode: the user agreed to open the link (see meaning); never computed

export interface CalculateResult {
  status: CalculateStatus;
  computed: boolean;
  value: number | null;
  /** which layer refused the content: the SDK's elicitInput (JSON Schema) or the app's zod check */
  rejectedBy?: "sdk" | "app";
  code?: number;
  action?: string;
  content?: Record<string, unknown> | null;
  /** URL mode: what an accept means there */
  meaning?: string;
}
