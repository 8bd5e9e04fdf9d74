// The FastMCP peer (`fastmcp`): the Python framework FastMCP 4.2.3 on the Python SDK mcp 2.3.0, from
// its own pinned venv (.venv-fastmcp). The client is a driver program in its own process (client.py)
// that uses fastmcp.Client's public API only; it speaks MCP on its stdin/stdout and the lab records
// the wire on its side of the pipe. The server is a FastMCP stdio child (server.py) with the lab's tool suite.
// What changed in the client since 4.0.10 (the pin before 4.2.3), read from both sources: an accepted form's content
// is checked against requestedSchema before it is sent, and a failing one is answered -32603 (fastmcp/client/
// elicitation.py:38-50, :98-103, :110-114): the card's wrong accepts no longer reach the server; the initialize's
// clientInfo defaults to fastmcp and its version (client.py:574-575; the driver sets its own); a session lost inside a
// held context raises the transport's error or CONNECTION_CLOSED (client.py:678-690); context holds are kept per
// task (client.py:994-1016). The receive loop is mcp 2.3.0's, unchanged: no other row's meaning moved.
import type { ClientPeer, ServerPeer } from "../../plan/peer.js";
import { FASTMCP_ENV } from "../python/envs.js";
import { pythonClient, pythonServer } from "../python/peer.js";
import { pythonDist, sdkLabel } from "../installed.js";

const SDK = sdkLabel("fastmcp {} (on mcp {})", pythonDist(FASTMCP_ENV, "fastmcp"), pythonDist(FASTMCP_ENV, "mcp"));

/** How the Client negotiates at connect (its `mode`, fastmcp/client/client.py:132-144): the peer pins
 *  `legacy`, as the scenarios are written for 2025-11-25's server-to-client elicitation/create; `auto`
 *  (FastMCP's default, :450) probes server/discover first and adopts 2026-07-28 where a server offers it. */
export type FastmcpMode = "legacy" | "auto";

export function fastmcpClient(name: string, mode: FastmcpMode, meaning: string): ClientPeer {
  return pythonClient({ name, sdk: SDK, meaning, era: mode === "legacy" ? "2025-11-25" : "auto" }, FASTMCP_ENV, "fastmcp/client.py", ["--mode", mode]);
}

export const FASTMCP_CLIENT = fastmcpClient(
  "fastmcp",
  "legacy",
  "FastMCP 4.2.3's Client(transport, elicitation_handler=...) pinned to mode='legacy': fastmcp/client/elicitation.py wraps the handler into mcp 2.3.0's elicitation callback, which the SDK's JSONRPCDispatcher runs in a task spawned per inbound request",
);

export const FASTMCP_SERVER: ServerPeer = pythonServer(
  {
    name: "fastmcp",
    sdk: SDK,
    meaning: "the calculate server on FastMCP 4.2.3 (ctx.elicit on 2025-11-25; on 2026-07-28 calculate returns an InputRequiredResult and the other tools are refused as FastMCP refuses ctx.elicit)",
  },
  FASTMCP_ENV,
  "fastmcp/server.py",
  // PYTHONHASHSEED: FastMCP's schema refusal prints a set of type names (fastmcp/server/elicitation.py:449, :508-512),
  // whose order follows str hashing; a fixed seed makes its words the same on every run
  { PYTHONHASHSEED: "0" },
);
