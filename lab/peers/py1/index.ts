// The Python SDK 1.29.0 peers (`py1`), from their own pinned venv (.venv-py1): the SDK the deadlock
// was first seen in. The client is a driver program in its own process (client.py) whose receive loop
// is 1.29.0's own; the server is a FastMCP stdio child (server.py). Both speak MCP on stdin/stdout;
// the lab records the wire on its side of the pipe.
import { join } from "node:path";
import { LAB_DIR } from "../../paths.js";
import type { ClientPeer, ServerPeer } from "../../plan/peer.js";
import { envProblem, PY1_ENV } from "../py/setup.js";

const SDK = "mcp (Python SDK) 1.29.0";
const CLIENT_PY = join(LAB_DIR, "peers", "py1", "client.py");
const SERVER_PY = join(LAB_DIR, "peers", "py1", "server.py");
const unavailable = () => envProblem(PY1_ENV);

export const PY1_CLIENT: ClientPeer = {
  name: "py1",
  sdk: SDK,
  loops: ["sdk"],
  meaning: "the Python SDK 1.29.0 ClientSession as shipped: its receive loop awaits each inbound request's handler (shared/session.py:376), the real serial client",
  era: "2025-11-25",
  unavailable,
  driver: {
    kind: "process",
    // -B: client.py imports plan.py from lab/peers/py; write no __pycache__ into the source tree
    command: (planFile, eventsFile) => ({ command: PY1_ENV.python, args: ["-B", CLIENT_PY, "--plan", planFile, "--events", eventsFile], fork: "python" }),
  },
};

export const PY1_SERVER: ServerPeer = {
  name: "py1",
  sdk: SDK,
  meaning: "the calculate server on the Python SDK 1.29.0 FastMCP (ctx.elicit, ctx.session.elicit_form)",
  unavailable,
  child: {
    writesEvents: false,
    command: () => ({ command: PY1_ENV.python, args: ["-B", SERVER_PY], fork: "python" }),
  },
};
