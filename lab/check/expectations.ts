// The shape of a hand-written expectation file, and its loader. A malformed file is reported
// with its name and the path inside it, never half-used.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { OnDeadlock } from "../history/receive-loop.js";

export const Json: z.ZodType<unknown> = z.lazy(() =>
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
  /** matches when each key given equals the event's detail value, type-aware (e.g. {"handler": "running"}) */
  detail: z.record(z.string(), Json).optional(),
  nth: z.int().min(1).optional(),
});
export type EventSelector = z.infer<typeof EventSelector>;

/** The transports a claim is made over (absent: every one), and why not over the others. */
export const Over = z.strictObject({ transports: z.array(z.enum(["memory", "stdio", "http"])).min(1), why: z.string().min(1) });

export const OrderRule = z.strictObject({
  why: z.string().min(1),
  first: EventSelector,
  then: EventSelector,
  over: Over.optional(),
});
export type OrderRule = z.infer<typeof OrderRule>;

/**
 * A time span between two events, bounded by what the run itself measured, so a bound holds on
 * slow and fast machines alike and under load:
 * - against the SUM of the callbacks' own times during `unitCall` (default "first"; each
 *   callback.entered -> callback.left): structural claims. Callbacks that never overlap all fit
 *   inside the call, so it lasts at least their sum; callbacks that overlap make it shorter;
 * - in units of the MEDIAN callback time: a ratio, only where the ratio is the lesson, with a
 *   margin measured under load and said in `why`.
 */
export const TimingRule = z.strictObject({
  why: z.string().min(1),
  from: EventSelector,
  to: EventSelector,
  unitCall: z.string().optional(),
  /** span >= factor x the sum of the callbacks' own times */
  atLeastCallbackSum: z.number().min(0).optional(),
  /** span < factor x the sum of the callbacks' own times */
  lessThanCallbackSum: z.number().min(0).optional(),
  atLeastCallbacks: z.number().min(0).optional(),
  atMostCallbacks: z.number().min(0).optional(),
  /** an absolute bound, only where the protocol gives one (a request's own timeout) */
  atMostMs: z.number().min(0).optional(),
  /** the transports this bound is claimed over (absent: every one), and why not the others */
  over: Over.optional(),
});
export type TimingRule = z.infer<typeof TimingRule>;

export const Expectation = z.strictObject({
  scenario: z.string(),
  /** the client's receive-loop model: `sdk` = as shipped, `serial` = the lab's model */
  loop: z.enum(["sdk", "serial"]),
  /** client peers this file is written for (absent: ts1 only); see expectationFor */
  clients: z.array(z.string()).min(1).optional(),
  /** server peers this file is written for (absent: ts1 only) */
  servers: z.array(z.string()).min(1).optional(),
  /** present only in .break.json files: the lab fails the nested request at detection */
  onDeadlock: z.enum(["wait", "break"]).optional(),
  /** free text: what this expectation means and where it comes from */
  basis: z.string().min(1),
  /** tool results by call label, compared type-aware */
  results: z.record(z.string(), Json),
  /** the client callback's answers, in order; `error: <what it left by>` for a callback that answered
   *  nothing (e.g. a Python callback whose scope its SDK cancelled on a withdrawal) */
  callbacks: z.array(z.strictObject({ call: z.string(), action: z.union([z.enum(["accept", "decline", "cancel"]), z.string().regex(/^error: /)]) })),
  /** request and notification frames on the wire, by method (methods not listed are not checked) */
  wire: z.record(z.string(), z.int().min(0)),
  /** requests sent from inside a callback, and how each ended */
  nested: z.array(
    z.strictObject({ method: z.string(), outcome: z.enum(["ok", "failed"]), code: z.int().nullable().optional() }),
  ),
  /** counts of client-side timeline events by kind (kinds not listed are not checked) */
  events: z.record(z.string(), z.int().min(0)),
  /** counts of server-side events by kind, from the server's own record (in memory the shared
   *  timeline, over stdio the child's events file); absent: not checked */
  serverEvents: z.record(z.string(), z.int().min(0)).optional(),
  order: z.array(OrderRule),
  /**
   * Differences between the in-memory and the stdio timeline that are real and allowed, each
   * with the reason (lab/parity.ts names the rules). Absent: the two must agree exactly.
   */
  parityAllows: z
    .array(
      z.strictObject({
        rule: z.enum(["concurrent-arrivals", "http-streams", "withdrawal-beside-result"]),
        why: z.string().min(1),
        /** the transports compared with memory that need it (absent: every one); two rules on the same kind cannot combine */
        transports: z.array(z.enum(["stdio", "http"])).min(1).optional(),
      }),
    )
    .optional(),
  /** most client callbacks running at once (fan-out) */
  peakCallbacks: z.int().min(0).optional(),
  /** at least this many callbacks at once, where the server sends its requests from separate
   *  tasks and a fast callback may end before the last request arrives (why says so) */
  peakAtLeast: z.strictObject({ callbacks: z.int().min(1), why: z.string().min(1) }).optional(),
  timing: z.array(TimingRule).optional(),
});
export type Expectation = z.infer<typeof Expectation>;

export class ExpectationError extends Error {
  // One line whatever the file holds: a key or value quoted in the message may carry newlines.
  constructor(message: string) {
    super(message.replace(/[\r\n\u2028\u2029]+/g, "\\n"));
  }
}

import { EXPECTED_DIR } from "../paths.js";
export { EXPECTED_DIR };

/** The pairing an expectation is looked up for. */
export interface PairingKey {
  client: string;
  server: string;
}
export const TS1_PAIR: PairingKey = { client: "ts1", server: "ts1" };

/**
 * The one rule for which file applies to (scenario, loop, client, server): the most specific of
 * `<scenario>.<loop>.<client>.<server>.json`, `<scenario>.<loop>.<client>.json` and
 * `<scenario>.<loop>.json` that exists AND names the pairing in its `clients` and `servers`
 * (both default to ts1). With --on-deadlock break, each name is tried as `.break.json` first.
 */
export function expectationCandidates(scenario: string, loop: string, pair: PairingKey, onDeadlock: OnDeadlock, dir = EXPECTED_DIR): string[] {
  const stems = [`${scenario}.${loop}.${pair.client}.${pair.server}`, `${scenario}.${loop}.${pair.client}`, `${scenario}.${loop}`];
  return stems.flatMap((stem) => [...(onDeadlock === "break" ? [join(dir, `${stem}.break.json`)] : []), join(dir, `${stem}.json`)]);
}

export const appliesTo = (e: Pick<Expectation, "clients" | "servers">, pair: PairingKey): boolean =>
  (e.clients ?? ["ts1"]).includes(pair.client) && (e.servers ?? ["ts1"]).includes(pair.server);

/** The file that applies, or undefined when no file speaks for this pairing. */
export function expectationFor(scenario: string, loop: string, pair: PairingKey, onDeadlock: OnDeadlock = "wait", dir = EXPECTED_DIR): { file: string; expectation: Expectation } | undefined {
  for (const file of expectationCandidates(scenario, loop, pair, onDeadlock, dir)) {
    if (!existsSync(file)) continue;
    const expectation = checked(parseExpectation(readFileSync(file, "utf8"), file), file, scenario, loop);
    if (appliesTo(expectation, pair)) return { file, expectation };
  }
  return undefined;
}

/** The plain ts1 file name (kept for callers that only ever mean ts1 against ts1). */
export function expectationPath(scenario: string, loop: string, onDeadlock: OnDeadlock = "wait", dir = EXPECTED_DIR, pair: PairingKey = TS1_PAIR): string {
  return expectationFor(scenario, loop, pair, onDeadlock, dir)?.file ?? join(dir, `${scenario}.${loop}.json`);
}

/** What a text parsed to, per schema: a process reads the same expected files for run after run,
 *  and zod checks each text once. Valid texts only (a refusal is made anew each time, naming its
 *  file); each caller gets a copy of its own, never the kept one. */
const parsedTexts = new WeakMap<z.ZodType<unknown>, Map<string, unknown>>();
const PARSED_KEPT = 2_000;

export function parseExpectation(text: string, file: string): Expectation;
/** The same, against another expectation schema (e.g. lab/contract.ts). */
export function parseExpectation<T>(text: string, file: string, schema: z.ZodType<T>): T;
export function parseExpectation(text: string, file: string, schema: z.ZodType<unknown> = Expectation): unknown {
  let known = parsedTexts.get(schema);
  if (!known) parsedTexts.set(schema, (known = new Map()));
  if (known.has(text)) return structuredClone(known.get(text));
  const parsed = parseAgainst(text, file, schema);
  if (known.size >= PARSED_KEPT) known.clear();
  known.set(text, structuredClone(parsed));
  return parsed;
}

function parseAgainst(text: string, file: string, schema: z.ZodType<unknown>): unknown {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    // JSON.parse quotes the text around the fault, newlines and all: one line, cut short
    const why = (error as Error).message.replace(/\s+/g, " ");
    throw new ExpectationError(`${file}: not valid JSON: ${why.length > 200 ? `${why.slice(0, 199)}…` : why}`);
  }
  // The loop model's old name: one line naming the file, never a silent read (issue #23).
  if (raw !== null && typeof raw === "object" && "dispatch" in raw) throw new ExpectationError(`${file}: the key "dispatch" is now "loop" (the same sdk or serial)`);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const at = (path: PropertyKey[]) => `$${path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}`;
    const lines = parsed.error.issues.flatMap((issue) =>
      // an unknown key is reported at its own path, so the reader can find it
      issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => `at ${at([...issue.path, key])}: unknown key`)
        : [`at ${at(issue.path)}: ${issue.message.replace(/\s+/g, " ")}`],
    );
    // one line, every problem in it
    throw new ExpectationError(`${file}: malformed expectation: ${lines.join("; ")}`);
  }
  return parsed.data;
}

function checked(expectation: Expectation, file: string, scenario: string, loop: string): Expectation {
  const mode = expectation.onDeadlock ?? "wait";
  if (expectation.scenario !== scenario || expectation.loop !== loop || file.endsWith(".break.json") !== (mode === "break")) {
    throw new ExpectationError(`${file}: names ${expectation.scenario}/${expectation.loop}/${mode}, but its name says ${scenario}/${loop}/${file.endsWith(".break.json") ? "break" : "wait"}`);
  }
  return expectation;
}

export function loadExpectation(scenario: string, loop: string, onDeadlock: OnDeadlock = "wait", dir = EXPECTED_DIR, pair: PairingKey = TS1_PAIR): Expectation {
  const found = expectationFor(scenario, loop, pair, onDeadlock, dir);
  if (!found) {
    throw new ExpectationError(
      `no expectation written for ${scenario} under ${loop} with client ${pair.client} and server ${pair.server} (looked for ${expectationCandidates(scenario, loop, pair, onDeadlock, dir).map((f) => f.slice(dir.length + 1)).join(", ")} in ${dir})`,
    );
  }
  return found.expectation;
}
