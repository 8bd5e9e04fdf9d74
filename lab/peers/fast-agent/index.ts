// The fast-agent peer: fast-agent-mcp 0.2.36, the newest that installs on Python 3.11 (0.10.x needs Python >= 3.12 and
// pins mcp==2.3.0), on the mcp 1.10.1 it pins, resolved beside pydantic<2.12 and a2a-sdk<1 (as pip resolves it alone
// it does not import: notebooks/reference/python-stack-sources.md). Its own venv (build/venvs/fast-agent); the client
// is lab/peers/fast-agent/client.py: fast-agent's MCPAggregator spawning the lab's relay as its server command.
import type { ClientPeer } from "../../plan/peer.js";
import { FAST_AGENT_ENV } from "../python/envs.js";
import { pythonClient } from "../python/peer.js";
import { pythonDist, sdkLabel } from "../installed.js";

export const FAST_AGENT_CLIENT: ClientPeer = pythonClient({
  name: "fast-agent",
  sdk: sdkLabel("fast-agent-mcp {} (on mcp {})", pythonDist(FAST_AGENT_ENV, "fast-agent-mcp"), pythonDist(FAST_AGENT_ENV, "mcp")),
  meaning: "fast-agent's MCPAggregator (the base of every fast-agent Agent) spawning the lab's relay: no elicitation callback, sampling answered by its own model (PassthroughLLM, no network); mcp 1.10.1's loop awaits each inbound request inline (shared/session.py:356)",
  // the era of server-to-client requests (it asks for 2025-06-18, mcp 1.10.1's LATEST_PROTOCOL_VERSION, mcp/types.py:26)
  era: "2025-11-25",
}, FAST_AGENT_ENV, "fast-agent/client.py");
