// The two tools that ask the client for something other than a form, one request each:
// `summarize` (sampling/createMessage) and `roots_count` (roots/list). A client whose callback
// nests a request under a loop that awaits it deadlocks here exactly as it does for a form.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

const TIMEOUT_MS = 10_000;

const structured = (result: Record<string, unknown>): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(result) }],
  structuredContent: result,
});

export function registerSamplingRootsTools(mcp: McpServer): void {
  const server = mcp.server;

  mcp.registerTool(
    "summarize",
    { description: "Asks the client for one sampling completion and returns its text (synthetic: the lab's clients call no model)." },
    async (extra) => {
      if (server.getClientCapabilities()?.sampling === undefined) return structured({ status: "unsupported", text: null });
      const result = await server.createMessage(
        { messages: [{ role: "user", content: { type: "text", text: "Synthetic: summarize 3 x 7 in one word" } }], maxTokens: 8 },
        { timeout: TIMEOUT_MS, relatedRequestId: extra.requestId },
      );
      const text = result.content.type === "text" ? result.content.text : null;
      return structured({ status: "summarized", text, model: result.model });
    },
  );

  mcp.registerTool(
    "roots_count",
    { description: "Asks the client for its roots and returns how many it gave." },
    async (extra) => {
      if (server.getClientCapabilities()?.roots === undefined) return structured({ status: "unsupported", roots: null });
      const result = await server.listRoots(undefined, { timeout: TIMEOUT_MS, relatedRequestId: extra.requestId });
      return structured({ status: "counted", roots: result.roots.length });
    },
  );
}
