// Executes a callback Behaviour (lab/peers/behaviour.ts) for the TypeScript drivers: the same
// steps every driver takes, in the same order, with the SDK-specific request passed in.
import { setTimeout as delay } from "node:timers/promises";
import type { AnswerData, Behaviour } from "./behaviour.js";

export interface PerformContext {
  /** the tool names the session listed before its first call */
  listedTools: readonly string[];
  /** sends the nested request on the callback's own session (recorded by the caller); for
   *  tools/list it resolves to the tool names */
  nested(method: "tools/list" | "ping", timeoutMs: number): Promise<readonly string[] | undefined>;
}

const CANCEL: AnswerData = { action: "cancel" };

export async function perform(behaviour: Behaviour, ctx: PerformContext): Promise<AnswerData> {
  const otherwise = structuredClone(behaviour.otherwise ?? CANCEL);
  // The think time is the stimulus (a person reading the form), not a stand-in for behaviour.
  if (behaviour.delayMs) await delay(behaviour.delayMs);
  let known = ctx.listedTools;
  if (behaviour.nested) {
    try {
      const names = await ctx.nested(behaviour.nested.method, behaviour.nested.timeoutMs);
      if (names) known = names;
    } catch {
      return otherwise;
    }
  }
  if (behaviour.needTool !== undefined && !known.includes(behaviour.needTool)) return otherwise;
  return structuredClone(behaviour.answer);
}
