// The openai-agents (Python) peer: openai-agents 0.25.0's MCPServerStdio, the object an Agent's mcp_servers hold,
// on mcp 2.3.0 as pip resolves openai-agents alone (build/venvs/openai-agents-py). It takes no elicitation,
// sampling or roots callback: the client (client.py, an adapter of the lab's Python driver) shows what a server
// that asks gets. Not the TypeScript `openai-agents` peer (@openai/agents-core).
import type { ClientPeer } from "../../plan/peer.js";
import { OPENAI_AGENTS_PY_ENV } from "../python/envs.js";
import { pythonClient } from "../python/peer.js";
import { pythonDist, sdkLabel } from "../installed.js";

export const OPENAI_AGENTS_PY_CLIENT: ClientPeer = pythonClient({
  name: "openai-agents-py",
  sdk: sdkLabel("openai-agents {} (on mcp {})", pythonDist(OPENAI_AGENTS_PY_ENV, "openai-agents"), pythonDist(OPENAI_AGENTS_PY_ENV, "mcp")),
  meaning: "openai-agents 0.25.0's MCPServerStdio (Python) on mcp 2.3.0's Client(mode='auto'): no elicitation, sampling or roots callback, so it declares none and the SDK's default answers a server that asks anyway with -32600 'Elicitation not supported'",
  era: "auto",
}, OPENAI_AGENTS_PY_ENV, "openai-agents-py/client.py");
