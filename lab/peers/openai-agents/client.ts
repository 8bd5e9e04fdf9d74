// Client peer `openai-agents`: @openai/agents-core 0.20.0's MCP support (installed apart, run under
// Node 22 by lab/peers/node22), through its public API only: MCPServerStdio (connect, listTools,
// callToolResult, close). It spawns a command, no other stdio (dist/shims/mcp-server/node.mjs:277-282),
// so the command is the lab's bridge to the session's transport (lab/peers/stdio-bridge.ts). Lines
// cited are lab/peers/openai-agents/node_modules/@openai/agents-core/dist/.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { MCPServerStdio } from "@openai/agents-core";
import type { SessionPlan } from "../../plan/behaviour.js";
import type { EventSink } from "../perform.js";
import { openStdioBridge } from "../stdio-bridge.js";
import { fromCallToolResult, type NoFormFramework } from "../no-form/session.js";

export const OPENAI_AGENTS_DECLARES =
  "@openai/agents-core 0.20.0's MCPServerStdio builds @modelcontextprotocol/client's new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, listMaxPages }) with no capabilities and connects it in connect() (shims/mcp-server/node.mjs:283-291); MCPServerStdioOptions has no capabilities and no request handlers (mcp.d.ts:239-291)";

export const OPENAI_AGENTS: NoFormFramework = {
  name: "openai-agents",
  declares: OPENAI_AGENTS_DECLARES,
  async connect(transport: Transport, plan: SessionPlan, rec: EventSink) {
    const bridge = await openStdioBridge(transport);
    // The framework's public API does not say which era its Client chose: a 2026-07-28 session has no
    // initialize, so the reply to its server/discover probe is read as the Client reads it.
    const forward = transport.onmessage;
    let noted = false;
    transport.onmessage = (message, extra) => {
      noted ||= noteModern(message, rec);
      forward?.(message, extra);
    };
    // the request timeout is the plan's (node.mjs:249-250: `timeout` for tools/call, :346-348, and seconds for the session's own requests)
    const server = new MCPServerStdio({ name: "lab", command: bridge.command, args: bridge.args, timeout: plan.callTimeoutMs, clientSessionTimeoutSeconds: plan.callTimeoutMs / 1000 });
    try {
      await server.connect();
    } catch (error) {
      await bridge.close().catch(() => undefined);
      throw error;
    }
    return {
      listTools: async () => (await server.listTools()).map((t) => t.name),
      callTool: async (name: string, args: Record<string, unknown>) => fromCallToolResult(await server.callToolResult(name, args)),
      close: async () => {
        await server.close();
        await bridge.close();
      },
    };
  },
};

// @modelcontextprotocol/client 2.4.0's only modern version (src-CeKsbNLO.mjs:481)
const MODERN = "2026-07-28";

/** A server/discover result that lists 2026-07-28: 'auto' takes it (classifyResult, client dist/public-CvV4ZHkX.mjs:2059-2068). True once noted. */
function noteModern(message: unknown, rec: EventSink): boolean {
  const versions = (message as { result?: { supportedVersions?: unknown } }).result?.supportedVersions;
  if (!Array.isArray(versions) || !versions.includes(MODERN)) return false;
  rec.event("client", "protocol.negotiated", { detail: { negotiation: "auto: server/discover on a sibling child, then the session", protocolVersion: MODERN, era: "modern" } });
  return true;
}
