// Executes a callback Behaviour (lab/plan/behaviour.ts) for the TypeScript drivers: the same
// steps every driver takes, in the same order, with the SDK-specific request passed in.
import { setTimeout as delay } from "node:timers/promises";
import type { AnswerData, Behaviour, SamplingBehaviour } from "../plan/behaviour.js";
import type { EventKind, Side, TimelineEvent } from "../history/timeline.js";

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

/** Why the client gave up on a call (CallData.giveUpAfterMs); the SDK puts it in notifications/cancelled.
 *  Every driver uses these words (lab/peers/py/client.py too). */
export const GIVE_UP_REASON = "the client gave up on the call while its form was open";

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

/** A sampling or roots callback's steps (lab/plan/behaviour.ts SamplingBehaviour): think, then the
 *  nested request if planned, whose failure changes nothing here (the caller recorded it). */
export async function performPlain(behaviour: SamplingBehaviour, nested: PerformContext["nested"]): Promise<void> {
  if (behaviour.delayMs) await delay(behaviour.delayMs);
  if (behaviour.nested) await nested(behaviour.nested.method, behaviour.nested.timeoutMs).catch(() => undefined);
}
