// The FastMCP peer (`fastmcp`): the Python framework FastMCP 4.0.10 on the Python SDK mcp 2.3.0, from
// its own pinned venv (.venv-fastmcp). The client is a driver program in its own process (client.py)
// that uses fastmcp.Client's public API only; it speaks MCP on its stdin/stdout and the lab records
// the wire on its side of the pipe. There is no FastMCP server peer: the lab's Python servers are the
// SDK's own (py, py1).
import { join } from "node:path";
import { LAB_DIR } from "../../paths.js";
import type { ClientPeer } from "../../plan/peer.js";
import { envProblem, FASTMCP_ENV } from "../py/setup.js";

const CLIENT_PY = join(LAB_DIR, "peers", "fastmcp", "client.py");

export const FASTMCP_CLIENT: ClientPeer = {
  name: "fastmcp",
  sdk: "fastmcp 4.0.10 (on mcp 2.3.0)",
  loops: ["sdk"],
  meaning:
    "FastMCP 4.0.10's Client(transport, elicitation_handler=...) pinned to mode='legacy': fastmcp/client/elicitation.py wraps the handler into mcp 2.3.0's elicitation callback, which the SDK's JSONRPCDispatcher runs in a task spawned per inbound request",
  era: "2025-11-25",
  unavailable: () => envProblem(FASTMCP_ENV),
  driver: {
    kind: "process",
    // -B: client.py imports plan.py, pipe.py and driver_events.py from lab/peers/py; no __pycache__ in the tree
    command: (planFile, eventsFile) => ({ command: FASTMCP_ENV.python, args: ["-B", CLIENT_PY, "--plan", planFile, "--events", eventsFile] }),
  },
};
