// What the lab's answerer gives a form a host passes on (claude-agent-sdk's onElicitation,
// claude-code-hook's Elicitation hook, codex-app's mcpServer/elicitation/request): after a think
// time long enough for the probe's pings (every 50 ms) to be judged, accept with a value for each
// field of the form's schema. The calculate form gets the lab's valid answer (3 x 7 = 21).
import { VALID_ANSWER } from "../../plan/form.js";

/** a person reading the form: the probe needs 3 pings (150 ms) while it is open to judge the loop */
export const THINK_MS = 1_000;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const KNOWN: Json = { ...VALID_ANSWER, ready: true };

/** One value per property: the lab's own where it knows the field, else the schema's first
 *  allowed value (enum, minimum, default) or a plain one of its type. */
export function formContent(requestedSchema: unknown): Json {
  const properties = obj(obj(requestedSchema).properties);
  const content: Json = {};
  for (const [key, raw] of Object.entries(properties)) {
    const p = obj(raw);
    if (key in KNOWN) content[key] = KNOWN[key];
    else if (p.default !== undefined) content[key] = p.default;
    else if (Array.isArray(p.enum) && p.enum.length > 0) content[key] = p.enum[0];
    else if (p.type === "boolean") content[key] = true;
    else if (p.type === "integer" || p.type === "number") content[key] = typeof p.minimum === "number" ? p.minimum : 1;
    else content[key] = "lab";
  }
  return content;
}

/** the answer to a form request: accept with formContent; a URL request is declined (nothing opens a browser here) */
export function formAnswer(request: { mode?: string; requestedSchema?: unknown }): { action: "accept" | "decline"; content?: Json } {
  return request.mode === "url" ? { action: "decline" } : { action: "accept", content: formContent(request.requestedSchema) };
}
