// Which of the lab's client peers drives a Python distribution found in a user's stack (`stack`),
// one peer per mcp generation the set can resolve: the same framework runs the 1.x serial loop or
// the 2.x concurrent one depending on its neighbours' pins. A peer named here may not exist yet
// (issue 42 §2 adds them); `stack` then says "no adapter yet".
import type { FrameworkPeers } from "../plan/python-stack.js";

export const FRAMEWORK_PEERS: readonly FrameworkPeers[] = [
  { dist: "mcp", what: "the Python SDK itself (ClientSession)", mcp2: "py", mcp1: "py130" },
  { dist: "fastmcp", what: "FastMCP's Client", mcp2: "fastmcp" },
  { dist: "pydantic-ai-slim", what: "pydantic-ai's MCP toolsets", mcp2: "pydantic-ai", mcp1: "pydantic-ai-mcp1" },
  { dist: "pydantic-ai", what: "pydantic-ai's MCP toolsets", mcp2: "pydantic-ai", mcp1: "pydantic-ai-mcp1" },
  { dist: "google-adk", what: "Google ADK's McpToolset", mcp2: "google-adk", mcp1: "google-adk-mcp1" },
  { dist: "strands-agents", what: "Strands' MCPClient", mcp2: "strands" },
  { dist: "langchain-mcp-adapters", what: "LangChain's MultiServerMCPClient", mcp1: "langchain-py" },
  { dist: "mcp-use", what: "mcp-use's MCPClient", mcp1: "mcp-use" },
  { dist: "semantic-kernel", what: "Semantic Kernel's MCP plugins", mcp1: "semantic-kernel" },
  { dist: "openai-agents", what: "the OpenAI Agents SDK's MCP servers", mcp2: "openai-agents-py" },
  { dist: "fast-agent-mcp", what: "fast-agent", mcp1: "fast-agent" },
];

/** The peer for a framework on the mcp generation the set resolved (undefined: no such peer planned). */
export function frameworkPeer(entry: FrameworkPeers, mcpMajor: number): string | undefined {
  return mcpMajor >= 2 ? entry.mcp2 : entry.mcp1;
}
