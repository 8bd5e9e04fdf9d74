// The Python peers: the real MCP Python SDK 2.3.0, from the project's pinned venv (.venv).
// Clients are driver programs in their own process (client.py, the 2.x adapter of lab/peers/python/lab_driver.py);
// the server is a stdio child (server.py). Both speak MCP on stdin/stdout; the lab records the wire on its side of the pipe.
import type { ClientPeer, ServerPeer } from "../../plan/peer.js";
import { PY_ENV } from "../python/envs.js";
import { pythonClient, pythonServer, withHttp } from "../python/peer.js";
import { pythonDist, sdkLabel } from "../installed.js";

const SDK = sdkLabel("mcp (Python SDK) {}", pythonDist(PY_ENV, "mcp"));

type Flavour = "shipped" | "inline" | "modern";
const FLAG: Record<Flavour, string[]> = { shipped: [], inline: ["--inline"], modern: ["--modern"] };

function py2Client(name: string, flavour: Flavour, meaning: string): ClientPeer {
  return pythonClient({
    name,
    sdk: SDK,
    meaning,
    era: flavour === "modern" ? "2026-07-28" : "2025-11-25",
    // py-inline is 2.3.0 with an option the lab forces: the 1.x ordering, not a shipped default
    ...(flavour === "inline" && { reconfigured: "its JSONRPCDispatcher built with inline_methods={'elicitation/create'}" }),
  }, PY_ENV, "py/client.py", FLAG[flavour]);
}

// also over Streamable HTTP when asked alone (--transport http): the SDK's own HTTP client (lab_http.py)
export const PY_CLIENT = withHttp(py2Client("py", "shipped", "the Python SDK 2.3.0 ClientSession as shipped (its JSONRPCDispatcher spawns each inbound request's handler)"));

export const PY_INLINE_CLIENT = py2Client(
  "py-inline",
  "inline",
  "the Python SDK 2.3.0 ClientSession with its own JSONRPCDispatcher built with inline_methods={'elicitation/create'}: the 1.x ordering, in real SDK code",
);

export const PY_MODERN_CLIENT = py2Client(
  "py-modern",
  "modern",
  "the Python SDK 2.3.0 high-level Client pinned to 2026-07-28 (mode='2026-07-28': no probe, no initialize): input-required rounds instead of server-to-client requests",
);

export const PY_SERVER: ServerPeer = pythonServer(
  { name: "py", sdk: SDK, meaning: "the calculate server on the Python SDK 2.3.0 MCPServer (ctx.elicit and Resolve/Elicit)" },
  PY_ENV,
  "py/server.py",
);
