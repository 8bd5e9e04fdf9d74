// The pydantic-ai peers: pydantic-ai-slim's MCPToolset (pydantic_ai/mcp.py:787), the MCP client object its agents
// call, built on FastMCP's Client. One adapter (client.py), two venvs, each as pip resolves it: `pydantic-ai` alone
// (fastmcp-slim 4.x on mcp 2.x, a task per inbound request) and `pydantic-ai-mcp1` beside a `mcp<2` pin (fastmcp-slim
// 3.x on mcp 1.x, whose receive loop awaits each inbound request inline). The versions shown are read from the venv.
import type { ClientPeer } from "../../plan/peer.js";
import type { PythonEnv } from "../python/envs.js";
import { PYDANTIC_AI_ENV, PYDANTIC_AI_MCP1_ENV } from "../python/envs.js";
import { pythonClient } from "../python/peer.js";
import { pythonDist, sdkLabel } from "../installed.js";

const label = (env: PythonEnv) =>
  sdkLabel("pydantic-ai-slim {} (fastmcp {} on mcp {})", pythonDist(env, "pydantic-ai-slim"), pythonDist(env, "fastmcp-slim"), pythonDist(env, "mcp"));

/** A pydantic-ai peer on `env`; `cacheTools`: the toolset's default cache_tools=True (pydantic_ai/mcp.py:979), under
 *  which a tools/list after the first is served from its cache (:1535-1536) and never reaches the wire. */
export function pydanticAiClient(name: string, env: PythonEnv, era: ClientPeer["era"], meaning: string, cacheTools = false): ClientPeer {
  const flags = ["--peer", name, ...(cacheTools ? ["--cache-tools"] : [])];
  return pythonClient({ name, sdk: label(env), meaning, era }, env, "pydantic-ai/client.py", flags);
}

export const PYDANTIC_AI_CLIENT = pydanticAiClient(
  "pydantic-ai",
  PYDANTIC_AI_ENV,
  // MCPToolset builds its Client without a mode (:1305-1317): fastmcp 4.x's default 'auto' probes server/discover
  "auto",
  "pydantic-ai-slim's MCPToolset as pip resolves it alone (fastmcp 4.x, mcp 2.x), cache_tools off, with elicitation, sampling and roots handlers: FastMCP's Client on mcp 2.x's dispatcher, which runs each inbound request in a task of its own",
);

export const PYDANTIC_AI_MCP1_CLIENT = pydanticAiClient(
  "pydantic-ai-mcp1",
  PYDANTIC_AI_MCP1_ENV,
  "2025-11-25",
  "the same MCPToolset resolved beside a `mcp<2` pin (fastmcp 3.x, mcp 1.30.0), cache_tools off: mcp 1.x's receive loop awaits each inbound request's handler inline (mcp/shared/session.py:376)",
);
