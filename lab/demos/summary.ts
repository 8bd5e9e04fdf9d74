// What a demo session shows, read from the recorded timeline: the calls, replies and notices as
// wire frames (lab/history/timeline.ts), nothing computed from expectations.
import type { TimelineEvent, WireFrame } from "../history/timeline.js";

export interface SessionSummary {
  results: Record<string, unknown>;
  /** each call's time from call.started to tool.result, ms */
  callMs: Record<string, number>;
  /** most elicitation callbacks running at the same time */
  peakCallbacks: number;
  callbacks: number;
  /** requests the server sent to the client, by method (2026-07-28 must have none) */
  serverToClientRequests: Record<string, number>;
  nested: string[];
  rounds: string[];
}

export function summarise(events: readonly TimelineEvent[], wire: readonly WireFrame[]): SessionSummary {
  const results: Record<string, unknown> = {};
  let running = 0;
  let peakCallbacks = 0;
  let callbacks = 0;
  const nested: string[] = [];
  const rounds: string[] = [];
  let nestedSentAt = 0;
  const callMs: Record<string, number> = {};
  const startedAt = new Map<string, number>();
  for (const e of events) {
    const d = e.detail ?? {};
    if (e.kind === "call.started") startedAt.set(String(d.call), e.t);
    if (e.kind === "tool.result") callMs[String(d.call)] = Math.round((e.t - (startedAt.get(String(d.call)) ?? e.t)) * 10) / 10;
    if (e.kind === "tool.result") results[String(d.call)] = d.error ?? (d.isError ? { isError: true, result: d.result, text: d.text } : d.result);
    if (e.kind === "callback.entered") {
      callbacks++;
      peakCallbacks = Math.max(peakCallbacks, ++running);
    }
    if (e.kind === "callback.left") running--;
    if (e.kind === "nested.sent") nestedSentAt = e.t;
    if (e.kind === "nested.ok") nested.push(`${e.method} ok in ${(e.t - nestedSentAt).toFixed(1)} ms`);
    if (e.kind === "nested.failed") nested.push(`${e.method} failed after ${(e.t - nestedSentAt).toFixed(1)} ms ${JSON.stringify(d)}`);
    if (e.kind === "round.input_required" || e.kind === "round.answered") {
      rounds.push(`${String(d.call)} round ${String(d.round)} ${e.kind.slice(6)} [${(d.keys as string[]).join(",")}]`);
    }
  }
  const serverToClientRequests: Record<string, number> = {};
  for (const f of wire) {
    const m = f.message as { method?: string; id?: unknown };
    if (f.from === "server" && m.method !== undefined && m.id !== undefined) {
      serverToClientRequests[m.method] = (serverToClientRequests[m.method] ?? 0) + 1;
    }
  }
  return { results, callMs, peakCallbacks, callbacks, serverToClientRequests, nested, rounds };
}

/** The wire, one short line per frame: direction, JSON-RPC id, method or result kind, and the
 *  multi-round-trip fields (inputRequests / inputResponses keys, requestState). */
export function wireSteps(wire: readonly WireFrame[]): string[] {
  const methods = new Map<string, string>();
  return wire.map((f) => {
    const m = f.message as { id?: unknown; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { code: number } };
    const arrow = f.from === "client" ? "c->s" : "s->c";
    if (m.method !== undefined) {
      if (m.id !== undefined) methods.set(`${f.from}:${String(m.id)}`, m.method);
      const responses = m.params?.inputResponses as Record<string, unknown> | undefined;
      const extra = responses ? ` inputResponses[${Object.keys(responses).join(",")}]` : "";
      const state = m.params?.requestState !== undefined ? ` requestState=${JSON.stringify(m.params.requestState)}` : "";
      return `${arrow} ${m.method}${m.id !== undefined ? `#${String(m.id)}` : ""}${extra}${state}`;
    }
    const of = methods.get(`${f.from === "client" ? "server" : "client"}:${String(m.id)}`) ?? "?";
    if (m.error) return `${arrow} error#${String(m.id)} (${of}) ${m.error.code}`;
    const r = m.result ?? {};
    const kind = r.resultType === "input_required" ? ` input_required[${Object.keys((r.inputRequests as object) ?? {}).join(",")}]` : "";
    const state = r.requestState !== undefined ? ` requestState=${JSON.stringify(r.requestState)}` : "";
    return `${arrow} result#${String(m.id)} (${of})${kind}${state}`;
  });
}
