// The steps every TypeScript client driver takes around its SDK's own calls: a form callback
// recorded where it runs, the plan's tools/calls in order, each with its give-up signal (CallBook)
// and its recorded result or error, and the whole session under its bound, then the close under its
// own. Only the SDK calls differ per driver.
import { withBound } from "../plan/bounds.js";
import type { AnswerData, CallData, SessionPlan } from "../plan/behaviour.js";
import type { CallBook } from "./call-book.js";
import { perform, type EventSink, type PerformContext } from "./perform.js";

/** How a driver reads an SDK's error into an event's detail. */
export type Describe = (error: unknown) => Record<string, unknown>;

/** What a form callback needs from its driver's session. */
export interface FormSession {
  rec: EventSink;
  book: CallBook;
  calls: readonly CallData[];
  /** the tool names the session listed before its first call (read when the form arrives) */
  listedTools(): readonly string[];
}

/**
 * One elicitation as every TypeScript driver answers it: callback.entered (`n`, the call it came
 * during, `detail`), the call's Behaviour performed with the SDK's abort `signal` (callback.aborted
 * recorded when the Behaviour watches it), then callback.left with the answer's action or the error.
 * No Behaviour planned for the call: the callback fails.
 */
export async function answerForm(
  s: FormSession,
  form: { n: number; call: string; ids: { id: string | number; origin?: "server"; method: string }; detail?: Record<string, unknown> },
  signal: AbortSignal,
  nested: PerformContext["nested"],
): Promise<AnswerData> {
  const { n, call, ids } = form;
  s.rec.event("client", "callback.entered", { ...ids, detail: { n, call, ...form.detail } });
  const leave = s.book.enter(call);
  const behaviour = s.calls.find((c) => c.label === call)?.callback;
  const aborted = () => s.rec.event("client", "callback.aborted", { ...ids, detail: { n, call, reason: String(signal.reason) } });
  if (behaviour?.watchAbort && signal.aborted) aborted();
  else if (behaviour?.watchAbort) signal.addEventListener("abort", aborted, { once: true });
  try {
    if (!behaviour) throw new Error(`no callback behaviour is planned for an elicitation during '${call}'`);
    const answer = await perform(behaviour, { listedTools: s.listedTools(), signal, nested });
    s.rec.event("client", "callback.left", { ...ids, detail: { n, call, action: answer.action } });
    return answer;
  } catch (error) {
    s.rec.event("client", "callback.left", { ...ids, detail: { n, call, error: String(error) } });
    throw error;
  } finally {
    signal.removeEventListener("abort", aborted);
    leave();
  }
}

/**
 * Each call of the plan in turn: call.started, `call` (given the give-up signal, armed by its first
 * form), tool.result with what `call` returned or the error it threw; then, when the call says so, the
 * wait for its callbacks, bounded by the plan's call limit (a call that gave up may leave a form open).
 */
export async function runPlanCalls(
  plan: SessionPlan,
  book: CallBook,
  rec: EventSink,
  describe: Describe,
  call: (data: CallData, giveUp: AbortSignal | undefined) => Promise<Record<string, unknown>>,
): Promise<void> {
  for (const data of plan.calls) {
    rec.event("client", "call.started", { detail: { call: data.label } });
    const giveUp = book.start(data.giveUpAfterMs);
    try {
      const detail = await call(data, giveUp);
      rec.event("client", "tool.result", { detail: { call: data.label, ...detail } });
    } catch (error) {
      rec.event("client", "tool.result", { detail: { call: data.label, error: describe(error) } });
    } finally {
      book.end();
    }
    if (data.awaitCallbacks) await withBound(book.settled(data.label), plan.callTimeoutMs, `callbacks of call ${data.label}`);
  }
}

/** `work` within `bound.ms` (named `bound.what`), then `close` within `closeBound.ms`, whatever happened;
 *  returns what went wrong, the session's failure also noted on the timeline. */
export async function boundedSession(
  rec: EventSink,
  describe: Describe,
  bound: { ms: number; what: string },
  work: () => Promise<void>,
  closeBound: { ms: number; what: string },
  close: () => Promise<void>,
): Promise<string[]> {
  const errors: string[] = [];
  try {
    await withBound(work(), bound.ms, bound.what);
  } catch (error) {
    errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    rec.event("client", "note", { detail: { sessionFailed: describe(error) } });
  } finally {
    try {
      await withBound(close(), closeBound.ms, closeBound.what);
    } catch (error) {
      errors.push(String(error));
    }
  }
  return errors;
}
