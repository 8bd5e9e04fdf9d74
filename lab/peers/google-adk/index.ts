// The google-adk peers: google-adk's McpToolset (google/adk/tools/mcp_tool/mcp_toolset.py:151), the MCP client object
// an ADK agent's tools come from. One adapter (client.py), two venvs, each as pip resolves it: `google-adk` alone
// (google-adk[mcp] -> mcp 2.x, a task per inbound request) and `google-adk-mcp1` beside langchain-mcp-adapters, whose
// `mcp<2` pin resolves mcp 1.30.0 (a receive loop that awaits each inbound request inline). McpToolset takes only a
// server command: it spawns the lab's relay (lab/peers/python/lab_relay.py). The versions shown are read from the venv.
import type { ClientPeer } from "../../plan/peer.js";
import type { PythonEnv } from "../python/envs.js";
import { GOOGLE_ADK_ENV, GOOGLE_ADK_MCP1_ENV } from "../python/envs.js";
import { pythonClient } from "../python/peer.js";
import { pythonDist, sdkLabel } from "../installed.js";

function googleAdkClient(name: string, env: PythonEnv, meaning: string): ClientPeer {
  const sdk = sdkLabel("google-adk {} (on mcp {})", pythonDist(env, "google-adk"), pythonDist(env, "mcp"));
  // ADK's _connect sends initialize unless the experimental MCP_MODERN_PROTOCOL flag is on (session_context.py:60-63)
  return pythonClient({ name, sdk, meaning, era: "2025-11-25" }, env, "google-adk/client.py", ["--peer", name]);
}

export const GOOGLE_ADK_CLIENT = googleAdkClient(
  "google-adk",
  GOOGLE_ADK_ENV,
  "google-adk's McpToolset as `google-adk[mcp]` resolves alone (mcp 2.x), elicitation and sampling callbacks, the nested tools/list through toolset.get_tools(): mcp 2.x's dispatcher runs each inbound request in a task of its own",
);

export const GOOGLE_ADK_MCP1_CLIENT = googleAdkClient(
  "google-adk-mcp1",
  GOOGLE_ADK_MCP1_ENV,
  "the same McpToolset resolved beside langchain-mcp-adapters (mcp 1.30.0): mcp 1.x's receive loop awaits each inbound request's handler inline (mcp/shared/session.py:376)",
);
