// Tools for cancellation across the callback (issue #18), on the same synthetic server:
//   calculate          (calculate-server.ts) plain elicitInput: a cancelled call leaves its form open;
//   calculate_linked   passes the call's own signal to elicitInput: cancelling the call withdraws the form;
//   calculate_limited  gives its own elicitation a limit: when it passes, the server SDK withdraws the form.
// `pingFirst` makes the server ping the client before it asks, so the form is not the server's
// request #0 in a fresh session (the TS SDK 1.32.2 client ignores a cancellation of id 0).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra, RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { EmptyResultSchema, type CallToolResult, type ServerNotification, type ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { EventKind, TimelineEvent } from "../../history/timeline.js";
import type { CalculateResult } from "../../plan/form.js";
import { askAndCalculate, ELICITATION_TIMEOUT_MS, protocolError, toolResult } from "./ask-form.js";

/** Records one of the server's own events where it happens. */
export type ServerNote = (kind: EventKind, fields: Omit<TimelineEvent, "seq" | "t" | "side" | "kind">) => void;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * Runs one tool's work for one tools/call, watching the call: records `tool.aborted` the moment
 * the SDK aborts the call's signal while the tool still runs (the client cancelled the call, or
 * the session closed), and `tool.finished` if the tool then ran on to the end: its result is for
 * a call nobody waits for. Once the tool has returned, its signal is no longer watched (the SDK
 * aborts every handler it still tracks on close, protocol.js _onclose, answered or not).
 */
export async function watchedCall(extra: Extra, tool: string, note: ServerNote | undefined, work: () => Promise<CalculateResult>): Promise<CallToolResult> {
  const about = { id: extra.requestId, origin: "client" as const, method: "tools/call" };
  const aborted = () => note?.("tool.aborted", { ...about, detail: { tool, reason: String(extra.signal.reason) } });
  extra.signal.addEventListener("abort", aborted, { once: true });
  try {
    const result = await work();
    if (extra.signal.aborted) note?.("tool.finished", { ...about, detail: { tool, status: result.status } });
    return toolResult(result);
  } finally {
    extra.signal.removeEventListener("abort", aborted);
  }
}

export function registerCancelTools(mcp: McpServer, note: ServerNote | undefined): void {
  const server = mcp.server;
  const unsupported = (): CalculateResult | undefined =>
    server.getClientCapabilities()?.elicitation?.form === undefined ? { status: "unsupported", computed: false, value: null } : undefined;
  // Server.ping() takes no options (server/index.js:286): the lab sends its own, bounded.
  const ping = (options: RequestOptions) => server.request({ method: "ping" }, EmptyResultSchema, options);
  const ask = async (pingFirst: boolean, options: RequestOptions): Promise<CalculateResult> => {
    const refused = unsupported();
    if (refused) return refused;
    if (pingFirst) {
      try {
        await ping({ ...options, timeout: ELICITATION_TIMEOUT_MS });
      } catch (error) {
        return protocolError(error);
      }
    }
    return askAndCalculate(server, options);
  };

  mcp.registerTool(
    "calculate_linked",
    {
      description: "calculate, with the call's own abort signal passed to elicitInput (synthetic; 3 x 7 = 21).",
      inputSchema: { pingFirst: z.boolean().optional() },
    },
    async ({ pingFirst = false }, extra) => {
      // The link: without `signal` the SDK never ties the elicitation to this call (protocol.js request()).
      return watchedCall(extra, "calculate_linked", note, () => ask(pingFirst, { timeout: ELICITATION_TIMEOUT_MS, signal: extra.signal }));
    },
  );

  mcp.registerTool(
    "calculate_limited",
    {
      description: "calculate, waiting for the form at most limitMs; then the server SDK withdraws it (synthetic).",
      inputSchema: { limitMs: z.int().min(1).max(ELICITATION_TIMEOUT_MS), pingFirst: z.boolean().optional() },
    },
    async ({ limitMs, pingFirst = false }, extra) => {
      // The SDK's own timeout: it sends notifications/cancelled for the request, then rejects -32001.
      return watchedCall(extra, "calculate_limited", note, () => ask(pingFirst, { timeout: limitMs }));
    },
  );
}
