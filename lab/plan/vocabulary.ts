// The 2025-11-25 form vocabulary (issue #16), as data shared by every server peer and the
// contract: one KIND per schema kind, each asked for as a one-field form (`value`) by the tool
// `ask_field` ({ kind }), and the VOCABULARY_CASES that answer it. No SDK is imported here: the
// ts1 and ts2 servers send `property` exactly; the Python server renders its own pydantic model
// per kind (lab/peers/py/server.py), so its wire schema is its own and its expectations say so.
// `app` is the TypeScript servers' own strict check after their SDK: no coercion, no extra keys.
import { z } from "zod";

export interface FieldKind {
  name: string;
  /** the JSON Schema of the one property `value`, as the TypeScript servers send it */
  property: Record<string, unknown>;
  /** whether `value` is in `required` */
  required: boolean;
  /** the app's own check of the whole content object, after the SDK's */
  app: z.ZodType;
  /** outside the flat primitive vocabulary on purpose: which layer refuses to carry it? */
  outside?: true;
}

const one = (value: z.ZodType, required = true) => z.strictObject({ value: required ? value : value.optional() });
const COLOURS = ["red", "green", "blue"] as const;
const TITLED = [
  { const: "r", title: "Red" },
  { const: "g", title: "Green" },
] as const;

const kind = (name: string, property: Record<string, unknown>, value: z.ZodType, extra: Partial<FieldKind> = {}): FieldKind => ({
  name,
  property: { description: `synthetic ${name.replace(/_/g, " ")} field`, ...property },
  required: true,
  app: one(value, extra.required ?? true),
  ...extra,
});

export const FIELD_KINDS: readonly FieldKind[] = [
  kind("text", { type: "string", minLength: 2, maxLength: 8 }, z.string().min(2).max(8)),
  kind("email", { type: "string", format: "email" }, z.email()),
  kind("uri", { type: "string", format: "uri" }, z.url()),
  kind("date", { type: "string", format: "date" }, z.iso.date()),
  kind("date_time", { type: "string", format: "date-time" }, z.iso.datetime({ offset: true })),
  kind("integer", { type: "integer", minimum: 1, maximum: 10 }, z.int().min(1).max(10)),
  kind("number", { type: "number", minimum: 0.5, maximum: 9.5 }, z.number().min(0.5).max(9.5)),
  kind("boolean", { type: "boolean" }, z.boolean()),
  kind("enum_untitled", { type: "string", enum: [...COLOURS] }, z.enum(COLOURS)),
  kind("enum_titled", { type: "string", oneOf: TITLED.map((t) => ({ ...t })) }, z.enum(["r", "g"])),
  kind("enum_legacy", { type: "string", enum: ["r", "g"], enumNames: ["Red", "Green"] }, z.enum(["r", "g"])),
  kind(
    "multi_untitled",
    { type: "array", items: { type: "string", enum: [...COLOURS] }, minItems: 1, maxItems: 2 },
    z.array(z.enum(COLOURS)).min(1).max(2).refine((a) => new Set(a).size === a.length, "duplicate item"),
  ),
  kind(
    "multi_titled",
    { type: "array", items: { anyOf: TITLED.map((t) => ({ ...t })) }, minItems: 1, maxItems: 2 },
    z.array(z.enum(["r", "g"])).min(1).max(2).refine((a) => new Set(a).size === a.length, "duplicate item"),
  ),
  // `default` on every kind: optional fields whose default a client may fill in (applyDefaults).
  {
    name: "defaults",
    property: {}, // unused: this kind sends `defaultProperties` (several optional fields)
    required: false,
    app: z.strictObject({
      text: z.string().optional(),
      count: z.int().optional(),
      ratio: z.number().optional(),
      flag: z.boolean().optional(),
      colour: z.enum(COLOURS).optional(),
      colours: z.array(z.enum(COLOURS)).optional(),
    }),
  },
  kind("optional_text", { type: "string" }, z.string(), { required: false }),
  kind("nested_object", { type: "object", properties: { street: { type: "string" } } }, z.strictObject({ street: z.string() }), { outside: true }),
  kind("array_of_numbers", { type: "array", items: { type: "number" } }, z.array(z.number()), { outside: true }),
];

/** The `defaults` kind's properties: one optional field of each kind, each with a `default`. */
export const DEFAULT_PROPERTIES: Record<string, Record<string, unknown>> = {
  text: { type: "string", default: "hello" },
  count: { type: "integer", minimum: 1, maximum: 10, default: 5 },
  ratio: { type: "number", default: 1.5 },
  flag: { type: "boolean", default: true },
  colour: { type: "string", enum: [...COLOURS], default: "green" },
  colours: { type: "array", items: { type: "string", enum: [...COLOURS] }, default: ["red", "blue"] },
};

export const findKind = (name: string) => FIELD_KINDS.find((k) => k.name === name);

/** The exact requestedSchema a TypeScript server sends for a kind. */
export function kindSchema(k: FieldKind): Record<string, unknown> {
  if (k.name === "defaults") return { type: "object", properties: structuredClone(DEFAULT_PROPERTIES) };
  return { type: "object", properties: { value: structuredClone(k.property) }, ...(k.required && { required: ["value"] }) };
}

export interface VocabularyCase {
  /** `<kind>.<what>`, e.g. `integer.above_maximum` */
  name: string;
  kind: string;
  summary: string;
  /** the content the callback accepts with (always action accept) */
  content: Record<string, unknown>;
  /** the client declares elicitation.form.applyDefaults */
  applyDefaults?: true;
}

const c = (kindName: string, what: string, content: Record<string, unknown>, summary: string, extra: Partial<VocabularyCase> = {}): VocabularyCase => ({
  name: `${kindName}.${what}`,
  kind: kindName,
  summary,
  content,
  ...extra,
});

export const VOCABULARY_CASES: readonly VocabularyCase[] = [
  c("text", "valid", { value: "abc" }, "3 characters, allowed 2..8"),
  c("text", "too_short", { value: "a" }, "1 character (minLength 2)"),
  c("text", "too_long", { value: "abcdefghij" }, "10 characters (maxLength 8)"),
  c("text", "wrong_type", { value: 12 }, "a number where a string belongs"),
  c("text", "missing", {}, "the required field left out"),
  c("email", "valid", { value: "a@example.com" }, "an email address"),
  c("email", "bad_format", { value: "not-an-email" }, "no @"),
  c("uri", "valid", { value: "https://example.com/x" }, "an absolute URI"),
  c("uri", "bad_format", { value: "not a uri" }, "words with spaces"),
  c("date", "valid", { value: "2026-12-03" }, "an ISO 8601 date"),
  c("date", "bad_format", { value: "03/12/2026" }, "a day/month/year date"),
  c("date", "date_time_given", { value: "2026-12-03T10:00:00Z" }, "a date-time where a date belongs"),
  c("date_time", "valid", { value: "2026-12-03T10:00:00Z" }, "an RFC 3339 date-time"),
  c("date_time", "bad_format", { value: "tomorrow" }, "a word"),
  c("date_time", "date_given", { value: "2026-12-03" }, "a date where a date-time belongs"),
  c("integer", "valid", { value: 3 }, "3, allowed 1..10"),
  c("integer", "below_minimum", { value: 0 }, "0 (minimum 1)"),
  c("integer", "above_maximum", { value: 11 }, "11 (maximum 10)"),
  c("integer", "fraction", { value: 3.5 }, "3.5 where an integer is required"),
  c("integer", "string_digits", { value: "3" }, 'the string "3"'),
  c("number", "valid", { value: 2.5 }, "2.5, allowed 0.5..9.5"),
  c("number", "whole", { value: 3 }, "3: JSON cannot tell 3 from 3.0"),
  c("number", "below_minimum", { value: 0.1 }, "0.1 (minimum 0.5)"),
  c("number", "above_maximum", { value: 10 }, "10 (maximum 9.5)"),
  c("boolean", "valid", { value: true }, "true"),
  c("boolean", "string_true", { value: "true" }, 'the string "true"'),
  c("boolean", "one", { value: 1 }, "1 where a boolean belongs"),
  c("enum_untitled", "valid", { value: "green" }, "one of red, green, blue"),
  c("enum_untitled", "outside", { value: "purple" }, "a value outside the enum"),
  c("enum_titled", "valid", { value: "g" }, "the const g (titled Green)"),
  c("enum_titled", "title_given", { value: "Green" }, "the title instead of the const"),
  c("enum_titled", "outside", { value: "x" }, "a value outside the oneOf"),
  c("enum_legacy", "valid", { value: "g" }, "g (enumNames: Green)"),
  c("enum_legacy", "title_given", { value: "Green" }, "the enumName instead of the value"),
  c("multi_untitled", "valid", { value: ["red"] }, "one item, allowed 1..2"),
  c("multi_untitled", "too_few", { value: [] }, "no item (minItems 1)"),
  c("multi_untitled", "too_many", { value: ["red", "green", "blue"] }, "three items (maxItems 2)"),
  c("multi_untitled", "duplicate", { value: ["red", "red"] }, "the same item twice"),
  c("multi_untitled", "outside", { value: ["purple"] }, "an item outside items.enum"),
  c("multi_untitled", "not_array", { value: "red" }, "a string where an array belongs"),
  c("multi_titled", "valid", { value: ["g"] }, "the const g"),
  c("multi_titled", "title_given", { value: ["Green"] }, "the title instead of the const"),
  c("defaults", "left_out", {}, "every defaulted field left out; the client does not apply defaults"),
  c("defaults", "left_out_apply_defaults", {}, "every defaulted field left out; the client declares applyDefaults", { applyDefaults: true }),
  c("optional_text", "left_out", {}, "an optional field with no default left out"),
  c("nested_object", "answered", { value: { street: "Main" } }, "a nested object asked for: who refuses to carry it?"),
  c("array_of_numbers", "answered", { value: [1, 2] }, "an array of numbers asked for: who refuses to carry it?"),
];

export const findVocabularyCase = (name: string) => VOCABULARY_CASES.find((v) => v.name === name);

/**
 * What `ask_field` returns (structuredContent), the same shape on every server peer.
 * `content`: the content object as the server's app finally holds it (after its SDK: a layer that
 * coerces or fills in shows here), only on `accepted`.
 */
export interface AskFieldResult {
  kind: string;
  status: "accepted" | "invalid_content" | "invalid_response" | "declined" | "cancelled" | "unsupported" | "not_sent" | "protocol_error";
  /** invalid_content: the server SDK's own check, or the app's strict check after it */
  rejectedBy?: "sdk" | "app";
  content?: Record<string, unknown>;
  /** protocol_error: the JSON-RPC error code of the elicitation/create reply */
  code?: number;
  /** not_sent: the server SDK refused to send the request at all; its words, one line */
  reason?: string;
}

/**
 * The TypeScript servers' reading of an answer their SDK let through: decline and cancel end the
 * call; then the kind's own strict app check; what the app holds is the content as the SDK gave it.
 */
export function fieldFrom(k: FieldKind, answer: { action: string; content?: Record<string, unknown> }): AskFieldResult {
  const kind = k.name;
  if (answer.action === "decline") return { kind, status: "declined" };
  if (answer.action === "cancel") return { kind, status: "cancelled" };
  if (answer.content === undefined) return { kind, status: "invalid_response" };
  if (!k.app.safeParse(answer.content).success) return { kind, status: "invalid_content", rejectedBy: "app" };
  return { kind, status: "accepted", content: answer.content };
}
