// The langchain peer: @langchain/mcp-adapters 1.1.4 in this process (lab/peers/langchain/client.ts),
// installed apart (package.json here; the root pins zod 4.1.12 and its peer @langchain/langgraph
// 1.7.3 wants zod ^4.2.0). There is no server peer.
import { buildProblem } from "../cached-build.js";
import { npmPackage, sdkLabel } from "../installed.js";
import { npmApartBuild, npmApartDir } from "../npm-apart.js";
import { noFormClient } from "../no-form/peer.js";

export const LANGCHAIN_BUILD = npmApartBuild("langchain", "@langchain/mcp-adapters");

export const LANGCHAIN_CLIENT = noFormClient({
  name: "langchain",
  sdk: sdkLabel(
    "@langchain/mcp-adapters {} (on sdk {})",
    npmPackage("@langchain/mcp-adapters", { dir: npmApartDir("langchain") }),
    npmPackage("@modelcontextprotocol/sdk", { dir: npmApartDir("langchain"), via: "@langchain/mcp-adapters" }),
  ),
  meaning: "LangChain's MultiServerMCPClient (stdio connection to the lab's bridge), getTools() and each tool's invoke(): it declares no capability and registers no request handler (connection.js:32-36)",
  unavailable: () => buildProblem(LANGCHAIN_BUILD),
  load: async () => (await import("./client.js")).LANGCHAIN,
});
