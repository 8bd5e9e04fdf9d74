// What ended a nested request's wait (issue 41), read from the run's evidence only: the error the
// nested request got (nested.failed's detail, as each driver records its SDK's error) and the wire
// (a courtesy cancel's reason). Never from the scenario's planned timeoutMs: a Kotlin 0.14.0 client
// is asked for 0.5 s, yet its SDK sets no limit on the wait, and the lab's backstop ends it.
// The kind of limit and its configured length are structural; the measured wait is kept apart.
import { cancelledRequestId } from "../history/frames.js";
import type { TimelineEvent, WireFrame } from "../history/timeline.js";

/** sdk: the SDK's own request limit; backstop: the lab driver's, where the SDK sets none on that
 *  path; callback: a limit the callback put around the request itself (the SDK offers none per request);
 *  session: the lab's bound, which ended the whole session, as nothing could end the wait itself (a callback
 *  blocking the very loop its request needs: strands' list_tools_sync, mcp_client.py:757). */
export type WaitEnder = "sdk" | "backstop" | "callback" | "session";

export interface WaitEnd {
  by: WaitEnder;
  /** the error that says so, as recorded ("McpError 408", "TimeoutCancellationException") */
  error: string;
  /** the limit's configured length as the evidence states it; absent when it does not */
  configuredMs?: number;
  /** a measurement (nested.sent to nested.failed): shown beside, never compared */
  waitedMs?: number;
}

type Detail = Record<string, unknown>;
interface Sign {
  by: WaitEnder;
  test: (d: Detail) => boolean;
  /** the configured length in the error's own words, ms */
  length: (d: Detail) => number | undefined;
}

const text = (v: unknown) => (typeof v === "string" ? v : "");
/** The first number `re` finds in `s`, times `scale` (to ms). */
const read = (s: string, re: RegExp, scale: number) => {
  const m = re.exec(s);
  return m ? Number(m[1]) * scale : undefined;
};

/** The error signatures, first match wins. Each cites where its words come from. */
export const WAIT_SIGNS: readonly Sign[] = [
  // The kotlin drivers' bounded() (lab/peers/jvm/kotlin/Main.kt): a coroutine withTimeout 1 s after
  // the SDK's limit; kotlinx.coroutines names its length ("Timed out waiting for 1500 ms"). The SDK's
  // own limit raises McpException -32001 instead (0.15); 0.14's bounds only the send (Protocol.kt:505-509).
  { by: "backstop", test: (d) => d.type === "TimeoutCancellationException", length: (d) => read(text(d.message), /waiting for (\d+) ms/, 1) },
  // The Python driver's backstop (lab/peers/python/lab_backstop.py LabBound): where a framework's session
  // sets no limit (langchain-mcp-adapters, mcp-use on mcp 1.30.0: shared/session.py:284-291), "the lab's bound of 1500 ms".
  { by: "backstop", test: (d) => d.type === "LabBound", length: (d) => read(text(d.message), /bound of (\d+) ms/, 1) },
  // The Python driver's bound on a session whose callback blocks its own loop (lab_events.py SESSION_BOUND,
  // lab/peers/strands/client.py --sync): "the lab's bound of 1500 ms ended the session".
  { by: "session", test: (d) => d.type === "LabSessionBound", length: (d) => (typeof d.boundMs === "number" ? d.boundMs : undefined) },
  // Go: the callback's context.WithTimeout (lab/peers/go/callbacks.go nest; the SDK takes no limit per request).
  { by: "callback", test: (d) => d.type === "timed out", length: () => undefined },
  // Java: the callback's Future.get or Reactor timeout() (lab/peers/jvm/java Sync.java, Main.java nested):
  // "Did not observe any item or terminal signal within 500ms".
  { by: "callback", test: (d) => d.type === "TimeoutException", length: (d) => read(text(d.message), /within (\d+)ms/, 1) },
  // Python: the callback's anyio.fail_after around a framework call that takes no limit per request (lab/peers/pydantic-ai/
  // client.py send_nested: MCPToolset.list_tools, pydantic_ai/mcp.py:1528-1543): TimeoutError, no length in its words.
  { by: "callback", test: (d) => d.type === "TimeoutError", length: () => undefined },
  // The SDK's own: mcp 1.29.0 send_request's request_read_timeout_seconds, McpError 408 "Waited 0.5
  // seconds." (shared/session.py:290-303); TS SDK 1.x request() timeout, McpError -32001 with
  // data.timeout (protocol.js:741); 2.x SdkError REQUEST_TIMEOUT; mcp 2.3.0 MCPError -32001, its length
  // in the courtesy cancel (jsonrpc_dispatcher.py:435-442); rmcp ServiceError::Timeout "PT0.5S" (service.rs:92); rust-mcp-sdk 1.1.0 SdkError -32001
  // with data.timeout, which its driver records as timeoutMs (rust-mcp-transport utils.rs:56-65).
  {
    by: "sdk",
    test: (d) => d.code === 408 || d.code === -32001 || d.sdkCode === "REQUEST_TIMEOUT" || d.type === "Timeout",
    length: (d) =>
      typeof d.timeoutMs === "number" ? d.timeoutMs : (read(text(d.message), /Waited ([\d.]+) seconds/, 1000) ?? read(text(d.message), /PT([\d.]+)S/, 1000)),
  },
];

/** What the error is, in a few words: "McpError 408", "SdkError REQUEST_TIMEOUT", "TimeoutCancellationException". */
export function errorName(d: Detail): string {
  const code = typeof d.code === "number" ? String(d.code) : text(d.sdkCode);
  return [text(d.type) || "error", code].filter(Boolean).join(" ");
}

/** A courtesy cancel's reason that names the length ("timed out after 0.5s", mcp 2.3.0). */
function cancelReasonMs(wire: readonly WireFrame[], request: WireFrame | undefined): number | undefined {
  if (!request) return undefined;
  const cancel = wire.find((f) => f.from === request.from && f.label.method === "notifications/cancelled" && cancelledRequestId(f.message) === request.label.id);
  const reason = (cancel?.message as { params?: { reason?: unknown } } | undefined)?.params?.reason;
  return read(text(reason), /after ([\d.]+)s\b/, 1000);
}

/** What ended the wait of the nested request that failed; undefined when no sign matches its error. */
export function waitEnd(failed: TimelineEvent, sent: TimelineEvent | undefined, wire: readonly WireFrame[], request?: WireFrame): WaitEnd | undefined {
  const d = failed.detail ?? {};
  const sign = WAIT_SIGNS.find((s) => s.test(d));
  if (!sign) return undefined;
  const configuredMs = sign.length(d) ?? (sign.by === "sdk" ? cancelReasonMs(wire, request) : undefined);
  return { by: sign.by, error: errorName(d), ...(configuredMs !== undefined && { configuredMs }), ...(sent && { waitedMs: failed.t - sent.t }) };
}

/** When the lab's bound ended the session (a `session` wait end), at its nested.failed; requests sent before then
 *  may have no reply: nothing was left to answer them. */
export const sessionBoundAt = (events: readonly TimelineEvent[]): number | undefined =>
  events.find((e) => e.kind === "nested.failed" && WAIT_SIGNS.find((s) => s.test(e.detail ?? {}))?.by === "session")?.t;

/** The card's word for a wait nothing but the end of the session ended (card-words.ts maps "hangs" to it). */
export const HANGS = "hangs, no limit";

/** The card's words for a deadlock, by what ended it: a small fixed set, no length, no time. */
export const DEADLOCK_UNTIL: Record<Exclude<WaitEnder, "session"> | "unknown", string> = {
  sdk: "deadlocks until the SDK's request limit",
  backstop: "deadlocks until the lab's backstop: no SDK limit on this path",
  callback: "deadlocks until the callback's own limit",
  unknown: "deadlocks until the nested request failed",
};
export const isDeadlockCell = (value: unknown) => typeof value === "string" && Object.values(DEADLOCK_UNTIL).includes(value);
