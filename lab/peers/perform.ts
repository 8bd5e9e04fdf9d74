// Executes a callback Behaviour (lab/plan/behaviour.ts) for the TypeScript drivers: the same
// steps every driver takes, in the same order, with the SDK-specific request passed in.
import { setTimeout as delay } from "node:timers/promises";
import type { AnswerData, Behaviour, SamplingBehaviour } from "../plan/behaviour.js";
import type { EventKind, Side, TimelineEvent } from "../history/timeline.js";
import type { CallBook } from "./call-book.js";

export interface PerformContext {
  /** the tool names the session listed before its first call */
  listedTools: readonly string[];
  /** sends the nested request on the callback's own session (recorded by the caller); for
   *  tools/list it resolves to the tool names */
  nested(method: "tools/list" | "ping", timeoutMs: number): Promise<readonly string[] | undefined>;
  /** the SDK's abort signal for this request; watched only when the behaviour says
   *  `watchAbort` (the caller records `callback.aborted` when it fires) */
  signal?: AbortSignal;
}


/** Where a TypeScript driver records (the Recorder of lab/history/timeline.ts fits). */
export interface EventSink {
  event(side: Side, kind: EventKind, fields?: Omit<TimelineEvent, "seq" | "t" | "side" | "kind">): unknown;
}

/** A nested request sent from inside a callback, recorded where it happens: nested.sent, then
 *  nested.ok or nested.failed (with the SDK's error as `describe` reads it). */
export function recordedNested(rec: EventSink, describe: (error: unknown) => Record<string, unknown>) {
  return async <T>(method: string, send: () => Promise<T>): Promise<T> => {
    rec.event("client", "nested.sent", { method });
    try {
      const result = await send();
      rec.event("client", "nested.ok", { method });
      return result;
    } catch (error) {
      rec.event("client", "nested.failed", { method, detail: describe(error) });
      throw error;
    }
  };
}

const CANCEL: AnswerData = { action: "cancel" };

class Aborted extends Error {}

/** Settles with `work`, or rejects with Aborted as soon as `signal` fires (never without one);
 *  `work` itself runs on (the nested request keeps its own limit). */
function unlessAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(new Aborted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Aborted());
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

export async function perform(behaviour: Behaviour, ctx: PerformContext): Promise<AnswerData> {
  const otherwise = structuredClone(behaviour.otherwise ?? CANCEL);
  const signal = behaviour.watchAbort ? ctx.signal : undefined;
  try {
    // The think time is the stimulus (a person reading the form), not a stand-in for behaviour.
    // With a watched signal the timer is cleared when it fires (delay's own abort support).
    if (behaviour.delayMs) await delay(behaviour.delayMs, undefined, signal && { signal }).catch((error: unknown) => {
      throw signal?.aborted ? new Aborted() : error;
    });
    let known = ctx.listedTools;
    if (behaviour.nested) {
      try {
        const names = await unlessAborted(ctx.nested(behaviour.nested.method, behaviour.nested.timeoutMs), signal);
        if (names) known = names;
      } catch (error) {
        if (error instanceof Aborted) throw error;
        return otherwise;
      }
    }
    if (signal?.aborted) return otherwise;
    if (behaviour.needTool !== undefined && !known.includes(behaviour.needTool)) return otherwise;
    return structuredClone(behaviour.answer);
  } catch (error) {
    // A withdrawn form is dismissed: the answer is `otherwise`, which the SDK may never send.
    if (error instanceof Aborted) return otherwise;
    throw error;
  }
}

/** What a sampling or roots callback needs from its TypeScript driver's session. */
export interface PlainSession {
  rec: EventSink;
  book: CallBook;
  /** the session's callback counter, shared with the elicitation callback */
  nextN(): number;
  /** the label of the tools/call in progress */
  label(): string;
  calls: readonly { label: string; sampling?: SamplingBehaviour; roots?: SamplingBehaviour }[];
  nested: PerformContext["nested"];
}

/**
 * A sampling or roots callback (lab/plan/behaviour.ts SamplingBehaviour), recorded where it
 * happens: think, then the nested request if planned, whose failure changes nothing here (the
 * nested recorder kept it); then `answer`. No plan for the call: the callback fails.
 */
export function plainCallback<R>(s: PlainSession, kind: "sampling" | "roots", answer: () => R) {
  return async (method: string, id: string | number): Promise<R> => {
    const n = s.nextN();
    const call = s.label();
    const plan = s.calls.find((c) => c.label === call)?.[kind];
    const ids = { id, origin: "server" as const, method };
    s.rec.event("client", "callback.entered", { ...ids, detail: { n, call } });
    const leave = s.book.enter(call);
    try {
      if (!plan) throw new Error(`no ${kind} callback is planned during '${call}'`);
      if (plan.delayMs) await delay(plan.delayMs);
      if (plan.nested) await s.nested(plan.nested.method, plan.nested.timeoutMs).catch(() => undefined);
      s.rec.event("client", "callback.left", { ...ids, detail: { n, call, action: "accept" } });
      return answer();
    } catch (error) {
      s.rec.event("client", "callback.left", { ...ids, detail: { n, call, error: String(error) } });
      throw error;
    } finally {
      leave();
    }
  };
}
