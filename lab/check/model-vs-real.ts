// Is the `serial` model faithful? The ts1 client behind the lab's model of the Python 1.x loop, the
// real Python SDK 1.29.0 client (py1, the thing modelled), the real 2.3.0 client with its own
// inline dispatch (py-inline) and the real Kotlin SDK 0.14.0 client (kotlin-0.14, a second serial
// loop in another language) run the same nested scenario. The same facts are read from each run;
// every difference is named, and it is allowed only with a reason that says what the model (or
// py-inline) takes from its own SDK instead of from 1.29.0, never a difference of ordering.
import { cancelledRequestId, isRequest } from "../history/frames.js";
import type { TimelineEvent, WireFrame } from "../history/timeline.js";
import { replyTo, resultsOf } from "./verify.js";
import { lateReport, type LateReport } from "./late-reply.js";

type LateReply = LateReport | "dropped silently" | "not seen";

export interface StoryFacts {
  /** the nested reply is on the wire before the callback gives up */
  replyBeforeLimit: boolean;
  /** the callback gives up at its limit, and answers only then */
  nestedFails: boolean;
  /** the nested request's error code */
  errorCode: number | null;
  first: unknown;
  recovery: unknown;
  /** a notifications/cancelled names the nested request */
  cancelNotice: boolean;
  /** how the late reply ends: reported as an error, logged, handed to a handler, read and dropped silently, or not seen */
  lateReply: LateReply;
  /** the late reply is seen by the client only after the first callback answered */
  replyReadAfterAnswer: boolean;
  /** the client's frames in order, by method and type (ids are each SDK's own numbering) */
  clientFrames: string[];
}

function lateReplyEvent(client: TimelineEvent[], read: TimelineEvent | undefined, failed: TimelineEvent | undefined): { kind: LateReply; event: TimelineEvent } | undefined {
  for (const e of client) {
    const kind = lateReport(e);
    if (kind) return { kind, event: e };
  }
  // No word from the SDK, but the client's read of the reply is recorded (its loop's dispatch, or a
  // driver's transport: Main.kt's Observed), after its requester gave up.
  if (read && failed && read.seq > failed.seq) return { kind: "dropped silently", event: read };
  return undefined;
}

/** `method`: the server request whose callback nests (a form; sampling for a client whose only callback is sampling). */
export function storyFacts(run: { events: TimelineEvent[]; wire: WireFrame[] }, method = "elicitation/create"): StoryFacts {
  const failed = run.events.find((e) => e.kind === "nested.failed");
  const elicit = run.wire.find((f) => f.from === "server" && isRequest(f.label) && f.label.method === method);
  const nested = run.wire.find((f) => elicit && f.index > elicit.index && f.from === "client" && isRequest(f.label) && f.label.method === "tools/list");
  const reply = nested && replyTo(run.wire, nested);
  const client = run.events.filter((e) => e.side === "client");
  const results = resultsOf(run.events);
  // When the client took the reply from its transport, where that is recorded; else the SDK's word on it.
  const dispatched = reply && client.find((e) => e.kind === "frame.dispatched" && e.frame === reply.index);
  const late = lateReplyEvent(client, dispatched, failed);
  const read = dispatched ?? late?.event;
  const answered = client.find((e) => e.kind === "callback.left" && e.detail?.call === "first");
  return {
    replyBeforeLimit: reply !== undefined && failed !== undefined && reply.t < failed.t,
    nestedFails: failed !== undefined,
    errorCode: typeof failed?.detail?.code === "number" ? failed.detail.code : null,
    first: results.first,
    recovery: results.recovery,
    cancelNotice: nested !== undefined && run.wire.some((f) => f.from === "client" && f.label.method === "notifications/cancelled" && cancelledRequestId(f.message) === nested.label.id),
    lateReply: late?.kind ?? "not seen",
    replyReadAfterAnswer: late !== undefined && read !== undefined && answered !== undefined && read.seq > answered.seq,
    clientFrames: run.wire.filter((f) => f.from === "client").map((f) => `${f.label.method ?? "?"} ${f.label.frameType}`),
  };
}

/** The named comparisons: which run stands for what, and what each side takes from its own SDK. */
export type Comparison = "model-vs-py1" | "py-inline-vs-py1" | "model-vs-py-inline" | "model-vs-kotlin-0.14" | "model-vs-pydantic-ai-mcp1" | "model-vs-google-adk-mcp1" | "model-vs-rust-mcp-sdk" | "model-vs-langchain-py" | "model-vs-mcp-use" | "model-vs-semantic-kernel";
export const COMPARISON_LABEL: Record<Comparison, string> = {
  "model-vs-py1": "the serial model (ts1 under serial) against the thing it models (py1: Python SDK 1.29.0 as shipped)",
  "py-inline-vs-py1": "py-inline (Python SDK 2.3.0, inline elicitation) against py1 (Python SDK 1.29.0 as shipped)",
  "model-vs-py-inline": "the serial model (ts1 under serial) against real code (py-inline: Python SDK 2.3.0, inline elicitation)",
  "model-vs-kotlin-0.14": "the serial model (ts1 under serial) against a second real serial client (kotlin-0.14: Kotlin SDK 0.14.0 as shipped)",
  "model-vs-rust-mcp-sdk": "the serial model (ts1 under serial) against a third real serial client (rust-mcp-sdk: the rust-mcp-sdk crate 1.1.0 as shipped)",
  "model-vs-pydantic-ai-mcp1": "the serial model (ts1 under serial) against a framework on mcp 1.30.0 (pydantic-ai-mcp1: pydantic-ai-slim 2.78.0's MCPToolset on fastmcp 3.4.11)",
  "model-vs-google-adk-mcp1": "the serial model (ts1 under serial) against a framework on mcp 1.30.0 (google-adk-mcp1: google-adk 2.15.0's McpToolset beside langchain-mcp-adapters)",
  "model-vs-langchain-py": "the serial model (ts1 under serial) against a framework on mcp 1.30.0 (langchain-py: langchain-mcp-adapters 0.3.2's client.session())",
  "model-vs-mcp-use": "the serial model (ts1 under serial) against a framework on mcp 1.30.0 (mcp-use: mcp-use 1.7.1's MCPClient and MCPSession)",
  "model-vs-semantic-kernel": "the serial model (ts1 under serial) against a framework on mcp 1.30.0 whose one callback is sampling (semantic-kernel 1.45.0's MCP plugin), sampling-nested",
};

const TS_TIMEOUT = "The model keeps the TS SDK 1.32.2's request(): on its timeout it rejects with McpError -32001 and sends notifications/cancelled first (shared/protocol.js); 1.29.0's send_request raises McpError(408, httpx.codes.REQUEST_TIMEOUT) from anyio.fail_after and writes nothing (mcp/shared/session.py:290-314).";
const PY2_TIMEOUT = "2.3.0's dispatcher raises MCPError -32001 after sending a courtesy notifications/cancelled (jsonrpc_dispatcher.py:428-442); 1.29.0 raises McpError 408 and writes nothing (mcp/shared/session.py:290-314).";
const KOTLIN_TIMEOUT =
  "The model keeps the TS SDK 1.32.2's request() timeout (McpError -32001); Kotlin 0.14.0's RequestOptions.timeout bounds only transport.send (core Protocol.kt:505-508), not the await (:509), so the deadlock ends at the kotlin driver's coroutine withTimeout backstop: TimeoutCancellationException, no code (findings-jvm.md 1).";
const KOTLIN_LATE =
  "both read the late reply after the callback answered and drop it; the model keeps the TS SDK's reporting (protocol.js _onresponse calls onerror: 'unknown message ID'); 0.14.0's onResponse hands it to onError (core Protocol.kt:380-386), an empty open function (:200) the driver's Client does not override: nothing is said after the read its transport recorded.";
const PYDANTIC_TIMEOUT =
  "The model keeps the TS SDK 1.32.2's request() timeout (McpError -32001, notifications/cancelled first); MCPToolset.list_tools takes no timeout (pydantic_ai/mcp.py:1528-1543) and FastMCP's Client's read_timeout is the call's, so the nested request ends at the caller's own anyio scope (TimeoutError, no code); FastMCP cancels its call task (fastmcp/client/client.py:769-773) and 1.30.0's send_request writes nothing (mcp/shared/session.py:310-314).";
const ADK_TIMEOUT =
  "The model keeps the TS SDK 1.32.2's request() timeout (McpError -32001, notifications/cancelled first); McpToolset.get_tools takes no timeout (google/adk/tools/mcp_tool/mcp_toolset.py:505-531) and its own limits are the connection's timeout (session_context.py:458, mcp_toolset.py:429), so the nested request ends at the caller's own anyio scope (TimeoutError, no code), which @retry_on_errors does not retry (mcp_session_manager.py:575-589 catches Exception only); 1.30.0's send_request writes nothing on it (mcp/shared/session.py:310-314).";
const ADK_UNSEEN =
  "ADK hands ClientSession the toolset's message_handler (session_context.py:454-463), None unless its caller gives one (mcp_toolset.py:181), and the lab gives none, so 1.30.0's default takes the late reply's RuntimeError (mcp/shared/session.py:518) and only yields (client/session.py:69-72): the read leaves no trace a Python driver can record. That the reply was on the wire before the limit (replyBeforeLimit) and the callback answered only after the nested request failed is the same deadlock.";
const RUST_MCP_SDK_TIMEOUT =
  "Both end the nested wait at their own request limit with -32001; the model keeps the TS SDK 1.32.2's request(), which sends notifications/cancelled first (shared/protocol.js); rust-mcp-sdk 1.1.0's transport returns SdkError -32001 from await_timeout and writes nothing (rust-mcp-transport message_dispatcher.rs:174-184, utils.rs:56-65).";
const RUST_MCP_SDK_LATE =
  "both read the late reply after the callback answered and drop it; the model keeps the TS SDK's reporting (protocol.js _onresponse calls onerror: 'unknown message ID'); rust-mcp-sdk 1.1.0 leaves the timed-out request's sender in its pending map, so pending_request_tx hands it out, the send to the dropped receiver fails and handle_message's error goes only to tracing::error (client_runtime.rs:239-243, :321-323), which the driver does not subscribe to: nothing is said after the read its McpObserver recorded.";
/** langchain-mcp-adapters and mcp-use give 1.30.0's session no read timeout: the lab's backstop ends the wait. */
const NO_LIMIT = (framework: string) =>
  `The model keeps the TS SDK 1.32.2's request() timeout (McpError -32001, notifications/cancelled first); ${framework}, and 1.30.0's send_request then waits with fail_after(None) (mcp/shared/session.py:284-291), so the deadlock ends at the Python driver's backstop, 1 s after the plan's limit (lab/peers/python/lab_backstop.py: LabBound, no code); the cancelled send_request writes nothing (:310-314).`;
const LANGCHAIN_TIMEOUT = NO_LIMIT("the session langchain-mcp-adapters 0.3.2 hands out has no read timeout (sessions.py:266-270 passes session_kwargs as given) and load_mcp_tools passes none (tools.py:320-355)");
const MCP_USE_TIMEOUT = NO_LIMIT("mcp-use 1.7.1's stdio ClientSession gets no read timeout (client/connectors/stdio.py:88-97) and MCPSession.list_tools passes none (client/session.py:115-121, connectors/base.py:481-498)");
const HANDLER_LATE = (handler: string) =>
  `both drop the late reply; the model keeps the TS SDK's reporting (protocol.js _onresponse calls onerror); 1.30.0 hands RuntimeError('Received response with an unknown request ID') to the message handler (mcp/shared/session.py:518, client/session.py:621-626), ${handler}.`;
/** Frames a real client sends that the model's does not, each once and for a reason: removed before clientFrames are compared. */
const EXTRA_FRAMES: Partial<Record<Comparison, { frames: string[]; why: string }>> = {
  "model-vs-mcp-use": { frames: ["tools/list request"], why: "mcp-use's connector lists the tools once right after initialize when the server offers tools (connectors/base.py:262-271)" },
  "model-vs-semantic-kernel": { frames: ["prompts/list request"], why: "semantic-kernel's plugin lists prompts at connect whatever the server offers (connectors/mcp.py:363-364); its tools/list there stands for the plan's list-first" },
};
const NO_CANCEL = (why: string) => `the only difference in the client's frames is the notifications/cancelled that 1.29.0 does not send. ${why}`;
/** A reason, or a reason that holds only for one value of the real side (the late reply's fate). */
type Allowance = string | { why: string; real: unknown };
const ALLOWED: Record<Comparison, Partial<Record<keyof StoryFacts, Allowance>>> = {
  "model-vs-py1": {
    errorCode: TS_TIMEOUT,
    cancelNotice: TS_TIMEOUT,
    clientFrames: NO_CANCEL(TS_TIMEOUT),
    lateReply: {
      real: "handed to the message handler",
      why: "both drop the late reply; the model keeps the TS SDK's reporting (protocol.js _onresponse calls onerror: 'unknown message ID'); 1.29.0 hands RuntimeError('Received response with an unknown request ID') to the message handler (mcp/shared/session.py:518, client/session.py:614-619).",
    },
  },
  "py-inline-vs-py1": {
    errorCode: PY2_TIMEOUT,
    cancelNotice: PY2_TIMEOUT,
    clientFrames: NO_CANCEL(PY2_TIMEOUT),
    lateReply: { real: "handed to the message handler", why: "both drop the late reply; 2.3.0 logs it at debug (jsonrpc_dispatcher.py:678-681); 1.29.0 hands RuntimeError to the message handler (mcp/shared/session.py:518)." },
  },
  "model-vs-kotlin-0.14": {
    errorCode: KOTLIN_TIMEOUT,
    lateReply: { real: "dropped silently", why: KOTLIN_LATE },
  },
  "model-vs-rust-mcp-sdk": {
    cancelNotice: RUST_MCP_SDK_TIMEOUT,
    clientFrames: `the only difference in the client's frames is the notifications/cancelled that rust-mcp-sdk 1.1.0 does not send. ${RUST_MCP_SDK_TIMEOUT}`,
    lateReply: { real: "dropped silently", why: RUST_MCP_SDK_LATE },
  },
  "model-vs-pydantic-ai-mcp1": {
    errorCode: PYDANTIC_TIMEOUT,
    cancelNotice: PYDANTIC_TIMEOUT,
    clientFrames: NO_CANCEL(PYDANTIC_TIMEOUT),
    lateReply: {
      real: "handed to the message handler",
      why: "both drop the late reply; the model keeps the TS SDK's reporting (protocol.js _onresponse calls onerror); 1.30.0 hands RuntimeError('Received response with an unknown request ID') to the message handler (mcp/shared/session.py:518, client/session.py:621-626), here the toolset's own, which passes it on (pydantic_ai/mcp.py:2040-2062).",
    },
  },
  "model-vs-google-adk-mcp1": {
    errorCode: ADK_TIMEOUT,
    cancelNotice: ADK_TIMEOUT,
    clientFrames: NO_CANCEL(ADK_TIMEOUT),
    lateReply: { real: "not seen", why: ADK_UNSEEN },
    replyReadAfterAnswer: { real: false, why: ADK_UNSEEN },
  },
  "model-vs-langchain-py": {
    errorCode: LANGCHAIN_TIMEOUT,
    cancelNotice: LANGCHAIN_TIMEOUT,
    clientFrames: NO_CANCEL(LANGCHAIN_TIMEOUT),
    lateReply: { real: "handed to the message handler", why: HANDLER_LATE("which the driver passes in through the connection's session_kwargs (langchain_mcp_adapters/sessions.py:125-126)") },
  },
  "model-vs-mcp-use": {
    errorCode: MCP_USE_TIMEOUT,
    cancelNotice: MCP_USE_TIMEOUT,
    clientFrames: `${NO_CANCEL(MCP_USE_TIMEOUT)} Besides: ${EXTRA_FRAMES["model-vs-mcp-use"]!.why}.`,
    lateReply: { real: "handed to the message handler", why: HANDLER_LATE("mcp-use's _internal_message_handler, which calls the driver's (connectors/base.py:167-180)") },
  },
  "model-vs-semantic-kernel": {
    errorCode: TS_TIMEOUT.replace("1.29.0", "1.30.0"),
    cancelNotice: TS_TIMEOUT.replace("1.29.0", "1.30.0"),
    clientFrames: `${NO_CANCEL(TS_TIMEOUT.replace("1.29.0", "1.30.0"))} Besides: ${EXTRA_FRAMES["model-vs-semantic-kernel"]!.why}.`,
    lateReply: { real: "handed to the message handler", why: HANDLER_LATE("the plugin's message_handler, which logs it (connectors/mcp.py:520-522) and which the driver wraps to note it") },
  },
  "model-vs-py-inline": {
    lateReply: {
      real: "dropped with a debug log",
      why: "both drop the late reply; how they say so is each SDK's own choice (TS 1.32.2 protocol.js _onresponse calls onerror; Python 2.3.0 jsonrpc_dispatcher.py:678-681 logs at debug). The model keeps the TS SDK's reporting because it models only the loop.",
    },
  },
};

/** clientFrames may differ only by the notifications/cancelled frames and the comparison's named extra frames
 *  (each removed once from the real side; everything else in order). */
const withoutCancels = (frames: unknown, extra: readonly string[] = []) => {
  const left = [...extra];
  return (frames as string[]).filter((f) => {
    const i = left.indexOf(f);
    if (i >= 0) return left.splice(i, 1), false;
    return !f.startsWith("notifications/cancelled ");
  });
};

export interface ModelVerdict {
  ok: boolean;
  comparison: Comparison;
  facts: { fact: keyof StoryFacts; model: unknown; real: unknown; same: boolean; allowed?: string }[];
}

export function compareModelWithReal(model: StoryFacts, real: StoryFacts, comparison: Comparison = "model-vs-py-inline"): ModelVerdict {
  const facts = (Object.keys(model) as (keyof StoryFacts)[]).map((fact) => {
    const same = JSON.stringify(model[fact]) === JSON.stringify(real[fact]);
    const allowance = same ? undefined : ALLOWED[comparison][fact];
    // an allowance for one real value allows no other (a late reply never read is not "dropped silently")
    let allowed = typeof allowance === "object" ? (JSON.stringify(real[fact]) === JSON.stringify(allowance.real) ? allowance.why : undefined) : allowance;
    if (allowed && fact === "clientFrames" && JSON.stringify(withoutCancels(model[fact])) !== JSON.stringify(withoutCancels(real[fact], EXTRA_FRAMES[comparison]?.frames))) allowed = undefined;
    return { fact, model: model[fact], real: real[fact], same, ...(allowed && { allowed }) };
  });
  return { ok: facts.every((f) => f.same || f.allowed !== undefined), comparison, facts };
}

export function renderModelVerdict(v: ModelVerdict): string {
  const lines = [`${v.ok ? "PASS" : "FAIL"} ${COMPARISON_LABEL[v.comparison]}, nested:`];
  for (const f of v.facts) {
    const mark = f.same ? "same" : f.allowed ? "differs, allowed" : "DIFFERS";
    const show = (x: unknown) => (Array.isArray(x) ? `${x.length} frames` : JSON.stringify(x));
    lines.push(`  ${mark.padEnd(16)} ${f.fact}: model ${f.same && Array.isArray(f.model) ? show(f.model) : JSON.stringify(f.model)} · real ${f.same && Array.isArray(f.real) ? show(f.real) : JSON.stringify(f.real)}`);
    if (f.allowed) lines.push(`                   why allowed: ${f.allowed}`);
  }
  return lines.join("\n");
}
