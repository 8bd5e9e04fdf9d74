// The probes' side of the wire: they send elicitation/create (and pings) from inside a tool call
// and note, for every request, how and when the server's SDK settled it. The SDK settles a
// request synchronously as it reads the reply (shared/protocol.js _onresponse -> resolve), and a
// reaction attached at once runs in settlement order, so numbering settlements in their
// reactions gives the order in which the server READ the replies, with no recorder at all: the
// probe works for any client over any transport. Every wait is bounded by the probe's limit.
import { setMaxListeners } from "node:events";
import { performance } from "node:perf_hooks";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ElicitResultSchema, EmptyResultSchema, ErrorCode, McpError, type ElicitRequestFormParams } from "@modelcontextprotocol/sdk/types.js";
import type { LoopObservation, Outcome, PingRecord, Settlement } from "./probe-judge.js";
import type { FanOutObservation, FanOutReply } from "./probe-infer.js";

/** After the elicitation settles, how long pings still open may take to be answered. */
export const PING_AFTER_WAIT_MS = 2_000;
/** Pinging stops after this many pings (the verdict needs 3); the elicitation is still awaited. */
export const MAX_PINGS = 100;

export const PROBE_SCHEMA: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: { ready: { type: "boolean", title: "I waited", description: "Tick after waiting a couple of seconds (nothing is computed)" } },
};

/** Numbers settlements in the order the server's SDK produced them. */
class SettlementClock {
  private seq = 0;
  private readonly t0 = performance.now();

  now(): number {
    return Math.round((performance.now() - this.t0) * 10) / 10;
  }

  /** Attach at once, before anything else can settle `request`, so the numbering is read order. */
  track<T>(request: Promise<T>, own: Map<unknown, Outcome>, server: Server): Promise<Settlement & { value?: T }> {
    return request.then(
      (value) => ({ outcome: "result" as const, atMs: this.now(), seq: this.seq++, value }),
      (error: unknown) => {
        const seq = this.seq++;
        const mine = own.get(error);
        if (mine) return { outcome: mine, atMs: this.now(), seq };
        // Protocol._onclose drops the transport before failing what is pending.
        if (server.transport === undefined) return { outcome: "closed" as const, atMs: this.now(), seq };
        const code = error instanceof McpError ? error.code : null;
        return { outcome: "error" as const, atMs: this.now(), seq, error: { code, message: error instanceof Error ? error.message : String(error) } };
      },
    );
  }
}

/** A reason to abort with: the SDK rejects with this very object (protocol.js cancel()). */
const reasonFor = (what: string) => new McpError(ErrorCode.RequestTimeout, what);

const formCapable = (server: Server) => server.getClientCapabilities()?.elicitation?.form !== undefined;

function elicit(server: Server, message: string, signal: AbortSignal, limitMs: number) {
  // The SDK's own timeout sits past the probe's limit: the probe's abort always ends it first.
  return server.request({ method: "elicitation/create", params: { mode: "form", message, requestedSchema: PROBE_SCHEMA } }, ElicitResultSchema, { signal, timeout: limitMs + 1_000 });
}

export async function observeLoop(server: Server, intervalMs: number, limitMs: number, message: string): Promise<LoopObservation> {
  if (!formCapable(server)) return { intervalMs, limitMs, elicitation: null, pings: [] };
  const clock = new SettlementClock();
  const limit = reasonFor(`the probe's limit of ${limitMs} ms`);
  const stopped = reasonFor("the probe stopped waiting for pings");
  const own = new Map<unknown, Outcome>([[limit, "limit"], [stopped, "unanswered"]]);
  const elicitCtl = new AbortController();
  const pingCtl = new AbortController();
  // every ping adds its own abort listener (protocol.js request()); up to MAX_PINGS are expected
  setMaxListeners(MAX_PINGS + 1, pingCtl.signal);
  const limitTimer = setTimeout(() => {
    elicitCtl.abort(limit);
    pingCtl.abort(limit);
  }, limitMs);
  const pings: Promise<PingRecord>[] = [];
  const ping = () => {
    const n = pings.length + 1;
    const sentAtMs = clock.now();
    const sent = server.request({ method: "ping" }, EmptyResultSchema, { signal: pingCtl.signal, timeout: limitMs + 1_000 });
    pings.push(clock.track(sent, own, server).then(({ value: _v, ...s }) => ({ ...s, n, sentAtMs })));
  };
  let pinger: NodeJS.Timeout | undefined;
  try {
    const answer = clock.track(elicit(server, message, elicitCtl.signal, limitMs), own, server);
    ping(); // at once: it reaches the client right behind the elicitation
    pinger = setInterval(() => (pings.length < MAX_PINGS ? ping() : clearInterval(pinger)), intervalMs);
    const settled = await answer;
    // A timer cannot run between the settlement and this reaction: every ping was sent while pending.
    clearInterval(pinger);
    const { value, ...elicitation } = settled;
    const after = setTimeout(() => pingCtl.abort(stopped), PING_AFTER_WAIT_MS);
    const records = await Promise.all(pings);
    clearTimeout(after);
    return { intervalMs, limitMs, elicitation: { ...elicitation, ...(value && { action: value.action, ...(value.content !== undefined && { content: value.content }) }) }, pings: records };
  } finally {
    clearInterval(pinger);
    clearTimeout(limitTimer);
  }
}

export async function observeFanOut(server: Server, n: number, limitMs: number, message: (i: number) => string): Promise<FanOutObservation> {
  if (!formCapable(server)) return { n, limitMs, replies: null };
  const clock = new SettlementClock();
  const limit = reasonFor(`the probe's limit of ${limitMs} ms`);
  const own = new Map<unknown, Outcome>([[limit, "limit"]]);
  const ctl = new AbortController();
  setMaxListeners(n + 1, ctl.signal);
  const limitTimer = setTimeout(() => ctl.abort(limit), limitMs);
  try {
    // All sent in one go, before any reply can be read.
    const sent = Array.from({ length: n }, (_, i) => clock.track(elicit(server, message(i + 1), ctl.signal, limitMs), own, server));
    const settled = await Promise.all(sent);
    const replies: FanOutReply[] = settled.map(({ value, ...s }, i) => ({ ...s, request: i + 1, ...(value && { action: value.action }) }));
    return { n, limitMs, replies };
  } finally {
    clearTimeout(limitTimer);
  }
}
