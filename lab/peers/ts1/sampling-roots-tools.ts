// The two tools that ask the client for something other than a form, one request each:
// `summarize` (sampling/createMessage) and `roots_count` (roots/list). A client whose callback
// nests a request under a loop that awaits it deadlocks here exactly as it does for a form.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";

const TIMEOUT_MS = 10_000;

const structured = (result: Record<string, unknown>): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(result) }],
  structuredContent: result,
});

/** A client that answers the request with an error (the AI SDK's -32601) ends the tool with that code as
 *  data, `{status: "refused", code}`, so a run shows what the client said; anything else still throws. */
export async function orRefused<T>(ask: Promise<T>, done: (answer: T) => Record<string, unknown>, empty: Record<string, unknown>): Promise<CallToolResult> {
  try {
    return structured(done(await ask));
  } catch (error) {
    if (error instanceof McpError) return structured({ status: "refused", code: error.code, ...empty });
    throw error;
  }
}

export function registerSamplingRootsTools(mcp: McpServer): void {
  const server = mcp.server;

  mcp.registerTool(
    "summarize",
    { description: "Asks the client for one sampling completion and returns its text (synthetic: the lab's clients call no model)." },
    async (extra) => {
      if (server.getClientCapabilities()?.sampling === undefined) return structured({ status: "unsupported", text: null });
      const ask = server.createMessage(
        { messages: [{ role: "user", content: { type: "text", text: "Synthetic: summarize 3 x 7 in one word" } }], maxTokens: 8 },
        { timeout: TIMEOUT_MS, relatedRequestId: extra.requestId },
      );
      return orRefused(ask, (result) => ({ status: "summarized", text: result.content.type === "text" ? result.content.text : null, model: result.model }), { text: null });
    },
  );

  mcp.registerTool(
    "roots_count",
    { description: "Asks the client for its roots and returns how many it gave." },
    async (extra) => {
      if (server.getClientCapabilities()?.roots === undefined) return structured({ status: "unsupported", roots: null });
      const ask = server.listRoots(undefined, { timeout: TIMEOUT_MS, relatedRequestId: extra.requestId });
      return orRefused(ask, (result) => ({ status: "counted", roots: result.roots.length }), { roots: null });
    },
  );
}
