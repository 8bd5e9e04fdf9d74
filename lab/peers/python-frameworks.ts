// Which of the lab's client peers drives a Python distribution found in a user's stack (`stack`),
// one peer per mcp generation the set can resolve: the same framework runs the 1.x serial loop or
// the 2.x concurrent one depending on its neighbours' pins. A peer named here may not exist yet
// (issue 42 §2 adds them); `stack` then says "no adapter yet".
import type { FrameworkPeers, StackPagePeer } from "../plan/python-stack.js";

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

/** The page "Which Python agent stacks deadlock today", one row per framework peer. `instead` is what
 *  the lab's own venvs show: the twin resolved without the `mcp<2` neighbour, or the framework's other API. */
export const STACK_PAGE_PEERS: readonly StackPagePeer[] = [
  { peer: "py130", env: "py130", dist: "mcp", instead: { peer: "py", change: "drop the `mcp<2` pin" } },
  { peer: "pydantic-ai", env: "pydantic-ai", dist: "pydantic-ai-slim", pinVia: "fastmcp-slim" },
  { peer: "pydantic-ai-mcp1", env: "pydantic-ai-mcp1", dist: "pydantic-ai-slim", pinVia: "fastmcp-slim", instead: { peer: "pydantic-ai", change: "drop the `mcp<2` pin" } },
  { peer: "google-adk", env: "google-adk", dist: "google-adk" },
  { peer: "google-adk-mcp1", env: "google-adk-mcp1", dist: "google-adk", instead: { peer: "google-adk", change: "drop langchain-mcp-adapters", neighbour: "langchain-mcp-adapters" } },
  { peer: "strands", env: "strands", dist: "strands-agents" },
  { peer: "strands-sync", env: "strands", dist: "strands-agents", instead: { peer: "strands", change: "send the nested request through the session the callback is handed (`context.session`), not `list_tools_sync()`" } },
  { peer: "langchain-py", env: "langchain-py", dist: "langchain-mcp-adapters" },
  { peer: "mcp-use", env: "mcp-use", dist: "mcp-use" },
  { peer: "semantic-kernel", env: "semantic-kernel", dist: "semantic-kernel" },
  { peer: "openai-agents-py", env: "openai-agents-py", dist: "openai-agents" },
  { peer: "fast-agent", env: "fast-agent", dist: "fast-agent-mcp" },
];
