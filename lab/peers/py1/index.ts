// The Python SDK 1.x peers: `py1` (1.29.0, .venv-py1, the SDK the deadlock was first seen in) and `py130`
// (1.30.0, the last 1.x: what `mcp<2` resolves to; build/venvs/py130), each from its own pinned venv. The
// client is one driver program (client.py, the 1.x adapter of lab/peers/python/lab_driver.py) whose receive
// loop is the SDK's own; the server is a FastMCP stdio child (server.py). Both speak MCP on stdin/stdout;
// the lab records the wire on its side of the pipe.
import type { ClientPeer, ServerPeer } from "../../plan/peer.js";
import { PY130_ENV, PY1_ENV } from "../python/envs.js";
import { pythonClient, pythonServer, withHttp } from "../python/peer.js";
import { pythonDist, sdkLabel } from "../installed.js";

const SDK = sdkLabel("mcp (Python SDK) {}", pythonDist(PY1_ENV, "mcp"));

// Each also over Streamable HTTP when asked alone (--transport http): the SDK's own HTTP client (lab_http.py).
export const PY1_CLIENT: ClientPeer = withHttp(pythonClient({
  name: "py1",
  sdk: SDK,
  meaning: "the Python SDK 1.29.0 ClientSession as shipped: its receive loop awaits each inbound request's handler (shared/session.py:376), the real serial client",
  era: "2025-11-25",
}, PY1_ENV, "py1/client.py"));

export const PY130_CLIENT: ClientPeer = withHttp(pythonClient({
  name: "py130",
  sdk: sdkLabel("mcp (Python SDK) {}", pythonDist(PY130_ENV, "mcp")),
  meaning: "the Python SDK 1.30.0 ClientSession as shipped, the last 1.x (what `mcp<2` resolves to): the same receive loop as 1.29.0, awaiting each inbound request's handler (shared/session.py:376)",
  era: "2025-11-25",
}, PY130_ENV, "py1/client.py", ["--peer", "py130"]));

export const PY1_SERVER: ServerPeer = pythonServer(
  { name: "py1", sdk: SDK, meaning: "the calculate server on the Python SDK 1.29.0 FastMCP (ctx.elicit, ctx.session.elicit_form)" },
  PY1_ENV,
  "py1/server.py",
);
