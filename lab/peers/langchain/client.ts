// Client peer `langchain`: @langchain/mcp-adapters 1.1.4 (installed apart, lab/peers/langchain/package.json),
// through its public API only: MultiServerMCPClient with one stdio connection, getTools(), and each
// tool's invoke(). Its only connections spawn a command (stdio) or open a URL (dist/types.d.ts:55-62,
// :220-227), so the command is the lab's bridge to the session's transport (lab/peers/stdio-bridge.ts).
// Lines cited are lab/peers/langchain/node_modules/@langchain/mcp-adapters/dist/.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { openStdioBridge } from "../stdio-bridge.js";
import { type FrameworkCall, type NoFormFramework } from "../no-form/session.js";

export const LANGCHAIN_DECLARES =
  "@langchain/mcp-adapters 1.1.4 builds every Client as new Client({ name, version }) with no capabilities and connects it at once (connection.js:32-36); its options have no capabilities and no request handlers";

export const LANGCHAIN: NoFormFramework = {
  name: "langchain",
  declares: LANGCHAIN_DECLARES,
  async connect(transport: Transport) {
    const bridge = await openStdioBridge(transport);
    const client = new MultiServerMCPClient({ mcpServers: { lab: { transport: "stdio", command: bridge.command, args: bridge.args, stderr: "inherit" } } });
    try {
      const tools = await client.getTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      return {
        listTools: async () => [...byName.keys()],
        async callTool(name: string, args: Record<string, unknown>): Promise<FrameworkCall> {
          const tool = byName.get(name);
          if (!tool) throw new Error(`langchain: no tool named ${name}`);
          // A single text block with structured content comes back as { type: "text", text, structuredContent } (tools.js:324-331).
          const out = (await tool.invoke(args)) as unknown;
          const structured = (out as { structuredContent?: unknown } | null)?.structuredContent;
          return { result: structured ?? out, isError: false };
        },
        close: async () => {
          await client.close();
          await bridge.close();
        },
      };
    } catch (error) {
      await client.close().catch(() => undefined);
      await bridge.close().catch(() => undefined);
      throw error;
    }
  },
};
