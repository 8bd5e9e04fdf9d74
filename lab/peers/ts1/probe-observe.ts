// The probes' side of the wire: they send elicitation/create or sampling/createMessage (and pings)
// from inside a tool call
// and note, for every request, how and when the server's SDK settled it. The SDK settles a
// request synchronously as it reads the reply (shared/protocol.js _onresponse -> resolve), and a
// reaction attached at once runs in settlement order, so numbering settlements in their
// reactions gives the order in which the server READ the replies, with no recorder at all: the
// probe works for any client over any transport. Every wait is bounded by the probe's limit.
import { performance } from "node:perf_hooks";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CreateMessageResultSchema, ElicitResultSchema, EmptyResultSchema, ErrorCode, McpError, type ElicitRequestFormParams, type ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { AnySchema, SchemaOutput } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { ProbedMethod } from "../../plan/tool-suite.js";
import type { LoopObservation, Outcome, PingRecord, Settlement } from "./probe-judge.js";
import type { FanOutObservation, FanOutReply } from "./probe-infer.js";

/** After the probed request settles, how long pings still open may take to be answered. */
export const PING_AFTER_WAIT_MS = 2_000;
/** Pinging stops after this many pings (the verdict needs 3); the request is still awaited. */
export const MAX_PINGS = 100;

export const PROBE_SCHEMA: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: { ready: { type: "boolean", title: "I waited", description: "Tick after waiting a couple of seconds (nothing is computed)" } },
};

/** A reason to withdraw with: the SDK rejects with this very object (protocol.js cancel()). */
const reasonFor = (what: string) => new McpError(ErrorCode.RequestTimeout, what);

const formCapable = (server: Server) => server.getClientCapabilities()?.elicitation?.form !== undefined;
const samplingCapable = (server: Server) => server.getClientCapabilities()?.sampling !== undefined;

/**
 * One probe run's requests: each has its own abort handle, so withdrawing sends
 * notifications/cancelled only for what is still open (the SDK never removes a request's abort
 * listener: aborting a shared signal would also "cancel" requests answered long ago). Settlements
 * are numbered in reactions attached at once, which is the order the server read the replies.
 */
class ProbeRequests {
  private seq = 0;
  private readonly t0 = performance.now();
  private readonly open = new Set<AbortController>();
  private readonly own = new Map<unknown, Outcome>();

  constructor(private readonly server: Server, private readonly limitMs: number) {}

  now(): number {
    return Math.round((performance.now() - this.t0) * 10) / 10;
  }

  send<S extends AnySchema>(request: ServerRequest, schema: S): Promise<Settlement & { value?: SchemaOutput<S> }> {
    const ctl = new AbortController();
    this.open.add(ctl);
    // The SDK's own timeout sits past the probe's limit: the probe's withdrawal always comes first.
    const sent = this.server.request(request, schema, { signal: ctl.signal, timeout: this.limitMs + 1_000 });
    return sent.then(
      (value) => (this.open.delete(ctl), { outcome: "result" as const, atMs: this.now(), seq: this.seq++, value }),
      (error: unknown) => {
        this.open.delete(ctl);
        const seq = this.seq++;
        const mine = this.own.get(error);
        if (mine) return { outcome: mine, atMs: this.now(), seq };
        // Protocol._onclose drops the transport before failing what is pending.
        if (this.server.transport === undefined) return { outcome: "closed" as const, atMs: this.now(), seq };
        const code = error instanceof McpError ? error.code : null;
        return { outcome: "error" as const, atMs: this.now(), seq, error: { code, message: error instanceof Error ? error.message : String(error) } };
      },
    );
  }

  /** Withdraws every request still open; each settles with `outcome`. */
  withdraw(outcome: Outcome, why: string): void {
    const reason = reasonFor(why);
    this.own.set(reason, outcome);
    for (const ctl of [...this.open]) ctl.abort(reason);
  }
}

const elicit = (requests: ProbeRequests, message: string) =>
  requests.send({ method: "elicitation/create", params: { mode: "form", message, requestedSchema: PROBE_SCHEMA } }, ElicitResultSchema);

/** The one request the loop probe keeps pending, and what of its answer the judgement reads. */
const PROBED: Record<ProbedMethod, { capable: (server: Server) => boolean; send: (requests: ProbeRequests, message: string) => Promise<Settlement & { action?: string; content?: unknown }> }> = {
  "elicitation/create": {
    capable: formCapable,
    send: (requests, message) =>
      elicit(requests, message).then(({ value, ...s }) => ({ ...s, ...(value && { action: value.action, ...(value.content !== undefined && { content: value.content }) }) })),
  },
  "sampling/createMessage": {
    capable: samplingCapable,
    // the completion's words are not judged: only when its reply was read
    send: (requests, message) =>
      requests
        .send({ method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: message } }], maxTokens: 16 } }, CreateMessageResultSchema)
        .then(({ value: _value, ...s }) => s),
  },
};

export async function observeLoop(server: Server, method: ProbedMethod, intervalMs: number, limitMs: number, message: string): Promise<LoopObservation> {
  const probed = PROBED[method];
  if (!probed.capable(server)) return { method, intervalMs, limitMs, request: null, pings: [] };
  const requests = new ProbeRequests(server, limitMs);
  const limitTimer = setTimeout(() => requests.withdraw("limit", `the probe's limit of ${limitMs} ms`), limitMs);
  const pings: Promise<PingRecord>[] = [];
  const ping = () => {
    const n = pings.length + 1;
    const sentAtMs = requests.now();
    pings.push(requests.send({ method: "ping" }, EmptyResultSchema).then(({ value: _v, ...s }) => ({ ...s, n, sentAtMs })));
  };
  let pinger: NodeJS.Timeout | undefined;
  let after: NodeJS.Timeout | undefined;
  try {
    const answer = probed.send(requests, message);
    ping(); // at once: it reaches the client right behind the request
    pinger = setInterval(() => (pings.length < MAX_PINGS ? ping() : clearInterval(pinger)), intervalMs);
    const settled = await answer;
    // A timer cannot run between the settlement and this reaction: every ping was sent while pending.
    clearInterval(pinger);
    // Only pings are open now.
    after = setTimeout(() => requests.withdraw("unanswered", "the probe stopped waiting for pings"), PING_AFTER_WAIT_MS);
    const records = await Promise.all(pings);
    return { method, intervalMs, limitMs, request: settled, pings: records };
  } finally {
    clearInterval(pinger);
    clearTimeout(after);
    clearTimeout(limitTimer);
  }
}

export async function observeFanOut(server: Server, n: number, limitMs: number, message: (i: number) => string): Promise<FanOutObservation> {
  if (!formCapable(server)) return { n, limitMs, replies: null };
  const requests = new ProbeRequests(server, limitMs);
  const limitTimer = setTimeout(() => requests.withdraw("limit", `the probe's limit of ${limitMs} ms`), limitMs);
  try {
    // All sent in one go, before any reply can be read.
    const sent = Array.from({ length: n }, (_, i) => elicit(requests, message(i + 1)));
    const settled = await Promise.all(sent);
    const replies: FanOutReply[] = settled.map(({ value, ...s }, i) => ({ ...s, request: i + 1, ...(value && { action: value.action }) }));
    return { n, limitMs, replies };
  } finally {
    clearTimeout(limitTimer);
  }
}
