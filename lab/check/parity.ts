// Parity: the same scenario must tell the same client-side story in memory and over stdio.
// Over stdio the server lives in another process, so only client events can be compared, and
// only what does not depend on timing: kinds, ids, methods, frame types, order, and a few
// semantic detail keys. Any difference left is reported, or allowed with a written reason.
import type { AllowedDifference, PairEvidence, ParityDifference, ParityEvent } from "./parity-types.js";
import type { Side, TimelineEvent } from "../history/timeline.js";
import { eventName, permuted, same, sameExcept, sortKeys, swappedSegments, type WalkContext } from "./reorder.js";

/** Detail keys that carry meaning rather than timing (waitedMs, queued, frame indexes are dropped). */
export const STABLE_DETAIL_KEYS = [
  "action", // callback.left, deadlock
  "call", // call.started, callback.*, tool.result
  "n", // callback.* (which callback of the session)
  "result", // tool.result
  "isError", // tool.result
  "error", // tool.result, callback.left
  "code", // nested.failed
  "message", // nested.failed, sdk.error
  "heldBehind", // frame.arrived (serial)
  "heldBehindMethod",
  "holder", // deadlock
  "waiting",
  "stdoutError", // note (stdio only, a failing run)
  "childExited", // note (stdio only, a failing run)
  "elicitationId", // elicitation.complete (deterministic: calculate-url-<n>)
  "handler", // cancel.received: was the cancelled request still running on that side?
  "tool", // tool.aborted, tool.finished
  "status", // tool.finished
] as const;


export function normalise(events: readonly TimelineEvent[], side: Side = "client"): ParityEvent[] {
  return events
    .filter((event) => event.side === side)
    .map((event) => {
      const out: ParityEvent = { kind: event.kind, side: event.side };
      if (event.id !== undefined) out.id = event.id;
      if (event.origin !== undefined) out.origin = event.origin;
      if (event.method !== undefined) out.method = event.method;
      if (event.frameType !== undefined) out.frameType = event.frameType;
      const detail: Record<string, unknown> = {};
      for (const key of STABLE_DETAIL_KEYS) {
        const value = event.detail?.[key];
        if (value !== undefined) detail[key] = key === "message" && typeof value === "string" ? canonicalMessage(value) : value;
      }
      if (Object.keys(detail).length > 0) out.detail = detail;
      return out;
    });
}

/**
 * The SDK echoes frames into some error texts with JSON.stringify ("Received a response for an
 * unknown message ID: {...}"). In memory that is the object the server built ({result, jsonrpc,
 * id}); over stdio it is JSONRPCMessageSchema's output, keys in schema order ({jsonrpc, id,
 * result}). Same content: the echoed JSON is re-serialised with sorted keys on both sides.
 */
export function canonicalMessage(message: string): string {
  const start = message.indexOf("{");
  if (start === -1) return message;
  try {
    return message.slice(0, start) + JSON.stringify(sortKeys(JSON.parse(message.slice(start))));
  } catch {
    return message;
  }
}



/**
 * For scenarios with several frames in flight at once (fan-out), not for the reentrancy ones:
 * in memory a burst of server sends all lands in the client queue before the pump's microtask
 * runs; over stdio each line is its own write, and how many the parent reads per chunk is up to
 * the OS (over HTTP: each SSE event, on one stream). Arrival order (the pipe and each stream are
 * FIFO) and dispatch order still have to match.
 */
export const CONCURRENT_ARRIVALS: readonly AllowedDifference[] = floatingArrivals(
  "arrivals of concurrent frames interleave with client steps as the pipe (or the SSE stream) delivers them; order kept, position and heldBehind not compared",
  "under the sdk model a frame is dispatched as soon as it arrives, so dispatches float with arrivals; their order is kept",
);

/** Arrivals and dispatches keep their order among themselves but float against other events. */
function floatingArrivals(arrivedWhy: string, dispatchedWhy: string): readonly AllowedDifference[] {
  return [
    { reason: arrivedWhy, kind: "frame.arrived", floating: true, detailKeys: ["heldBehind", "heldBehindMethod"] },
    { reason: dispatchedWhy, kind: "frame.dispatched", floating: true },
  ];
}


export interface ParityResult {
  ok: boolean;
  firstDifference?: ParityDifference;
  memoryCount: number;
  otherCount: number;
  /** reasons of the allowances that were actually used */
  allowedUsed: string[];
  /** pairs a `reorderable` allowance let swap, in words */
  reordered?: string[];
}

export function compareParity(
  memoryEvents: readonly TimelineEvent[],
  otherEvents: readonly TimelineEvent[],
  allowed: readonly AllowedDifference[] = [],
  side: Side = "client",
  pairs?: PairEvidence,
): ParityResult {
  const memory = normalise(memoryEvents, side);
  const stdio = normalise(otherEvents, side);
  const used = new Set<string>();
  const reordered: string[] = [];
  const ctx: WalkContext = { used, reordered, ...(pairs && { pairs }) };
  const result = (firstDifference?: ParityDifference): ParityResult => ({
    ok: firstDifference === undefined,
    ...(firstDifference && { firstDifference }),
    memoryCount: memory.length,
    otherCount: stdio.length,
    allowedUsed: [...used],
    ...(reordered.length > 0 && { reordered }),
  });
  // Strict first: an allowance is only reported as used when the strict comparison fails.
  const strict = walk(memory, stdio, [], ctx, "events");
  if (!strict || allowed.length === 0) return result(strict);
  const floating = allowed.filter((a) => a.floating);
  for (const rule of floating) {
    const pick = (events: ParityEvent[]) => events.filter((e) => e.kind === rule.kind);
    const difference = rule.reorderable
      ? permuted(pick(memory), pick(stdio), rule, used, reordered)
      : walk(pick(memory), pick(stdio), [rule], ctx, rule.kind);
    if (difference) return result(difference);
    if (pick(memory).length > 0) used.add(rule.reason);
  }
  const rest = (events: ParityEvent[]) => events.filter((e) => !floating.some((a) => a.kind === e.kind));
  return result(walk(rest(memory), rest(stdio), allowed.filter((a) => !a.floating), ctx, "events"));
}

/** Walks both sequences in step; returns the first difference no allowance covers. */
function walk(
  memory: ParityEvent[],
  stdio: ParityEvent[],
  allowed: readonly AllowedDifference[],
  ctx: WalkContext,
  sequence: string,
): ParityDifference | undefined {
  const { used } = ctx;
  let i = 0;
  let j = 0;
  while (i < memory.length || j < stdio.length) {
    const m = memory[i];
    const s = stdio[j];
    if (m && s && same(m, s)) {
      i++, j++;
      continue;
    }
    const swap = m && s && allowed.find((a) => a.adjacentSwap && a.kind === m.kind && a.kind === s.kind);
    const length = swap && ctx.pairs ? swappedSegments(memory, stdio, i, j) : 0;
    if (swap && length > 0 && ctx.pairs!.differentStreams(m!, s!)) {
      used.add(swap.reason);
      ctx.reordered.push(`${swap.kind}: ${eventName(s!)} and what followed it before ${eventName(m!)} and what followed it`);
      i += length;
      j += length;
      continue;
    }
    const rule =
      (m && s && allowed.find((a) => a.kind === m.kind && a.detailKeys && sameExcept(m, s, a.detailKeys))) ||
      (s && allowed.find((a) => a.onlyIn === "other" && a.kind === s.kind)) ||
      (m && allowed.find((a) => a.onlyIn === "memory" && a.kind === m.kind));
    if (!rule) return { sequence, index: i, otherIndex: j, memory: m, other: s };
    used.add(rule.reason);
    if (rule.onlyIn === "other") j++;
    else if (rule.onlyIn === "memory") i++;
    else i++, j++;
  }
  return undefined;
}

/**
 * Over Streamable HTTP the server's frames come on several streams (the GET stream, each POST's
 * response), and nothing orders two streams: a frame sent first on one may be read after a frame
 * sent later on another. Only for frames the run's HTTP evidence shows on different streams, and
 * only as two adjacent arrivals trading places with what each caused, before the client's next send.
 */
export const HTTP_STREAMS: readonly AllowedDifference[] = [
  {
    reason: "two frames from the server came on different HTTP streams (the GET stream, a POST's response), which nothing orders: their arrivals, each with what it caused, traded places",
    kind: "frame.arrived",
    adjacentSwap: true,
  },
];

/**
 * A withdrawn form beside its call's result: the server sends notifications/cancelled for its
 * form and then its tools/call result, back to back. The client SDK runs the callback's abort
 * (callback.aborted, callback.left) and the call's result (tool.result) on two promise chains of
 * their own. In memory the client's pump runs between the two frames; over stdio both often
 * arrive in one pipe chunk and the result's chain may finish first. Results keep their order
 * among themselves; their position against the callback is not compared.
 */
export const WITHDRAWAL_BESIDE_RESULT: readonly AllowedDifference[] = [
  {
    reason: "the call's result and the dismissal of its withdrawn form run on separate promise chains in the client SDK; results keep their order, their position against the callback is not compared",
    kind: "tool.result",
    floating: true,
  },
];

/** The allowances an expectation may name (`parityAllows[].rule`), by name. */
export const PARITY_RULES: Record<"concurrent-arrivals" | "http-streams" | "withdrawal-beside-result", readonly AllowedDifference[]> = {
  "concurrent-arrivals": CONCURRENT_ARRIVALS,
  "http-streams": HTTP_STREAMS,
  "withdrawal-beside-result": WITHDRAWAL_BESIDE_RESULT,
};

/**
 * The server's side, as the child recorded it: what the client sends back to back (e.g.
 * notifications/initialized then tools/list) reaches the child in whatever chunks the pipe
 * gives, while in memory the server's pump runs between the two sends. So on this side
 * arrivals and dispatches always float; their order among themselves, and everything the
 * server sends, must still match.
 */
export const SERVER_SIDE_ALLOWANCES: readonly AllowedDifference[] = floatingArrivals(
  "server side: frames the client sends back to back reach the child in one pipe chunk; arrivals keep their order, their position against the server's own steps is not compared",
  "server side: the server dispatches each frame as it arrives, so dispatches float with arrivals; their order is kept",
);
