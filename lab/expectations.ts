// The shape of a hand-written expectation file, and its loader. A malformed file is reported
// with its name and the path inside it, never half-used.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

const Json: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(Json), z.record(z.string(), Json)]),
);

/** Picks the nth (1-based) timeline event that matches every given field. */
export const EventSelector = z.strictObject({
  kind: z.string(),
  side: z.enum(["client", "server"]).optional(),
  method: z.string().optional(),
  frameType: z.enum(["request", "result", "error", "notification"]).optional(),
  /** matches detail.call (callback and tool.result events) */
  call: z.string().optional(),
  nth: z.int().min(1).optional(),
});
export type EventSelector = z.infer<typeof EventSelector>;

export const OrderRule = z.strictObject({
  why: z.string().min(1),
  first: EventSelector,
  then: EventSelector,
});
export type OrderRule = z.infer<typeof OrderRule>;

export const Expectation = z.strictObject({
  scenario: z.string(),
  dispatch: z.enum(["sdk", "serial"]),
  /** free text: what this expectation means and where it comes from */
  basis: z.string().min(1),
  /** tool results by call label, compared type-aware */
  results: z.record(z.string(), Json),
  /** the client callback's answers, in order */
  callbacks: z.array(z.strictObject({ call: z.string(), action: z.enum(["accept", "decline", "cancel"]) })),
  /** request and notification frames on the wire, by method (methods not listed are not checked) */
  wire: z.record(z.string(), z.int().min(0)),
  /** requests sent from inside a callback, and how each ended */
  nested: z.array(
    z.strictObject({ method: z.string(), outcome: z.enum(["ok", "failed"]), code: z.int().optional() }),
  ),
  /** counts of client-side timeline events by kind (kinds not listed are not checked) */
  events: z.record(z.string(), z.int().min(0)),
  order: z.array(OrderRule),
});
export type Expectation = z.infer<typeof Expectation>;

export class ExpectationError extends Error {}

export const EXPECTED_DIR = new URL("../expected/", import.meta.url).pathname;

export function expectationPath(scenario: string, dispatch: string): string {
  return join(EXPECTED_DIR, `${scenario}.${dispatch}.json`);
}

export function parseExpectation(text: string, file: string): Expectation {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ExpectationError(`${file}: not valid JSON: ${(error as Error).message}`);
  }
  const parsed = Expectation.safeParse(raw);
  if (!parsed.success) {
    const at = (path: PropertyKey[]) => `$${path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}`;
    const lines = parsed.error.issues.flatMap((issue) =>
      // an unknown key is reported at its own path, so the reader can find it
      issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => `  at ${at([...issue.path, key])}: unknown key`)
        : [`  at ${at(issue.path)}: ${issue.message}`],
    );
    throw new ExpectationError(`${file}: malformed expectation\n${lines.join("\n")}`);
  }
  return parsed.data;
}

export function loadExpectation(scenario: string, dispatch: string): Expectation {
  const file = expectationPath(scenario, dispatch);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new ExpectationError(`${file}: no expectation written for ${scenario} under ${dispatch}`);
  }
  const expectation = parseExpectation(text, file);
  if (expectation.scenario !== scenario || expectation.dispatch !== dispatch) {
    throw new ExpectationError(`${file}: names ${expectation.scenario}/${expectation.dispatch}, expected ${scenario}/${dispatch}`);
  }
  return expectation;
}
