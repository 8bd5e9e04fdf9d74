// Client peer `genkit`: @genkit-ai/mcp 1.42.0 (on genkit 1.42.0), through its public API only:
// createMcpClient with a custom transport (McpTransportServerConfig, lib/client/client.d.ts:44-47,
// taken as given: lib/util/transport.js:35-37), ready(), getActiveTools(ai) with rawToolResponses,
// and each tool action. Lines cited are node_modules/@genkit-ai/mcp/lib/.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { createMcpClient } from "@genkit-ai/mcp";
import { genkit } from "genkit";
import { fromCallToolResult, type NoFormFramework } from "../no-form/session.js";

export const GENKIT_DECLARES =
  "@genkit-ai/mcp 1.42.0 builds its Client with capabilities { roots: { listChanged: true } } only and answers roots/list from its `roots` option, no callback (client/client.js:129-136); McpClientOptions has no elicitation and no request handlers (client/client.d.ts:62-84)";

export const GENKIT: NoFormFramework = {
  name: "genkit",
  declares: GENKIT_DECLARES,
  async connect(transport: Transport) {
    const ai = genkit({});
    const client = createMcpClient({ name: "reentrancy-lab-client-genkit", serverName: "lab", mcpServer: { transport }, rawToolResponses: true });
    await client.ready();
    // a failed connect is kept as a string and the client disabled (client.js:137-145), not thrown
    if (!client.isEnabled()) throw new Error("genkit: the MCP client is disabled after connecting (its connect failed)");
    const tools = await client.getActiveTools(ai);
    const byName = new Map(tools.map((t) => [t.__action.name.replace(/^lab\//, ""), t]));
    return {
      listTools: async () => [...byName.keys()],
      async callTool(name: string, args: Record<string, unknown>) {
        const tool = byName.get(name);
        if (!tool) throw new Error(`genkit: no tool named ${name}`);
        // rawToolResponses: the tool returns the MCP CallToolResult as it came (util/tools.js:212-218)
        return fromCallToolResult((await tool(args)) as { structuredContent?: unknown; content?: unknown; isError?: unknown });
      },
      close: () => client.disable(),
    };
  },
};
