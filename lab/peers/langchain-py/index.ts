// The langchain-mcp-adapters peer (`langchain-py`): MultiServerMCPClient 0.3.2 on mcp 1.30.0, as pip resolves it
// alone (it pins mcp>=1.24,<2), from its own pinned venv (build/venvs/langchain-py). The client is the framework's
// persistent session (client.session(name): the mcp ClientSession it hands out) with Callbacks.on_elicitation, in
// a driver program of its own (client.py); the framework spawns its server as a command, the lab's relay, which
// joins the lab's pipe, and the lab records the wire on its side as for every peer.
import type { ClientPeer } from "../../plan/peer.js";
import { LANGCHAIN_PY_ENV } from "../python/envs.js";
import { pythonClient } from "../python/peer.js";
import { pythonDist, sdkLabel } from "../installed.js";

export const LANGCHAIN_PY_CLIENT: ClientPeer = pythonClient({
  name: "langchain-py",
  sdk: sdkLabel("langchain-mcp-adapters {} (on mcp {})", pythonDist(LANGCHAIN_PY_ENV, "langchain-mcp-adapters"), pythonDist(LANGCHAIN_PY_ENV, "mcp")),
  meaning: "langchain-mcp-adapters' MultiServerMCPClient, a persistent client.session() with Callbacks.on_elicitation, on mcp 1.30.0: the session it hands out is mcp's ClientSession, whose receive loop awaits each callback inline (shared/session.py:376), and it sets no read timeout",
  era: "2025-11-25",
}, LANGCHAIN_PY_ENV, "langchain-py/client.py");
