// The mcp-use peer (`mcp-use`): mcp-use 1.7.1's MCPClient on mcp 1.30.0, as pip resolves it alone, from its own
// pinned venv (build/venvs/mcp-use). The client is the framework's MCPClient and the MCPSession it creates, with its
// elicitation, sampling and roots callbacks, in a driver program of its own (client.py); the framework spawns its
// server as a command, the lab's relay, which joins the lab's pipe, and the lab records the wire on its side.
import type { ClientPeer } from "../../plan/peer.js";
import { MCP_USE_ENV } from "../python/envs.js";
import { pythonClient } from "../python/peer.js";
import { pythonDist, sdkLabel } from "../installed.js";

export const MCP_USE_CLIENT: ClientPeer = pythonClient({
  name: "mcp-use",
  sdk: sdkLabel("mcp-use {} (on mcp {})", pythonDist(MCP_USE_ENV, "mcp-use"), pythonDist(MCP_USE_ENV, "mcp")),
  meaning: "mcp-use's MCPClient and its MCPSession with elicitation, sampling and roots callbacks, on mcp 1.30.0: its stdio ClientSession's receive loop awaits each callback inline (shared/session.py:376), with no read timeout (connectors/stdio.py:88-97)",
  era: "2025-11-25",
  // mcp-use builds its telemetry client (PostHog, Scarf) when imported unless this is false (mcp_use/telemetry/telemetry.py:126-139,
  // client/client.py:22): no network in the lab, and the warm host imports mcp_use too
}, MCP_USE_ENV, "mcp-use/client.py", [], { MCP_USE_ANONYMIZED_TELEMETRY: "false" });
