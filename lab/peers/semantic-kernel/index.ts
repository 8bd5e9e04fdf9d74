// The semantic-kernel peer: Semantic Kernel 1.45.0's MCP plugin on mcp 1.30.0 (what it resolves alone: mcp is a
// core dependency pinned `>=1.26,<2`), from its own pinned venv (build/venvs/semantic-kernel). The client is the
// driver program lab/peers/semantic-kernel/client.py: an MCPPluginBase on the driver's own stdin/stdout, a kernel
// with the lab's scripted chat-completion service (no model), sampling consent given by its consent callback.
import type { ClientPeer } from "../../plan/peer.js";
import { SEMANTIC_KERNEL_ENV } from "../python/envs.js";
import { pythonClient } from "../python/peer.js";
import { pythonDist, sdkLabel } from "../installed.js";

export const SEMANTIC_KERNEL_CLIENT: ClientPeer = pythonClient({
  name: "semantic-kernel",
  sdk: sdkLabel("semantic-kernel {} (on mcp {})", pythonDist(SEMANTIC_KERNEL_ENV, "semantic-kernel"), pythonDist(SEMANTIC_KERNEL_ENV, "mcp")),
  meaning: "Semantic Kernel's MCP plugin (MCPPluginBase, connectors/mcp.py:237) with its sampling callback and a kernel chat service the lab scripts: no elicitation or roots callback, and mcp 1.30.0's receive loop awaits the sampling callback inline (shared/session.py:376)",
  era: "2025-11-25",
}, SEMANTIC_KERNEL_ENV, "semantic-kernel/client.py");
