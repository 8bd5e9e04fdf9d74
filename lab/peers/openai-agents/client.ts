// Client peer `openai-agents`: @openai/agents-core 0.20.0's MCP support (installed apart, run under
// Node 22 by lab/peers/node22), through its public API only: MCPServerStdio (connect, listTools,
// callToolResult, close). It spawns a command, no other stdio (dist/shims/mcp-server/node.mjs:277-282),
// so the command is the lab's bridge to the session's transport (lab/peers/stdio-bridge.ts). Lines
// cited are lab/peers/openai-agents/node_modules/@openai/agents-core/dist/.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { MCPServerStdio } from "@openai/agents-core";
import type { SessionPlan } from "../../plan/behaviour.js";
import { openStdioBridge } from "../stdio-bridge.js";
import { fromCallToolResult, type NoFormFramework } from "../no-form/session.js";

export const OPENAI_AGENTS_DECLARES =
  "@openai/agents-core 0.20.0's MCPServerStdio builds @modelcontextprotocol/client's new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, listMaxPages }) with no capabilities and connects it in connect() (shims/mcp-server/node.mjs:283-291); MCPServerStdioOptions has no capabilities and no request handlers (mcp.d.ts:239-291)";

export const OPENAI_AGENTS: NoFormFramework = {
  name: "openai-agents",
  declares: OPENAI_AGENTS_DECLARES,
  async connect(transport: Transport, plan: SessionPlan) {
    const bridge = await openStdioBridge(transport);
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
