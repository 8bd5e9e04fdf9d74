// The Python peers: the real MCP Python SDK 2.3.0, from the project's pinned venv (.venv).
// Clients are driver programs in their own process (client.py); the server is a stdio child
// (server.py). Both speak MCP on stdin/stdout; the lab records the wire on its side of the pipe.
import { join } from "node:path";
import { LAB_DIR } from "../../paths.js";
import type { ClientPeer, ServerPeer } from "../../plan/peer.js";
import { venvProblem, VENV_PYTHON } from "./setup.js";

const SDK = "mcp (Python SDK) 2.3.0";
const CLIENT_PY = join(LAB_DIR, "peers", "py", "client.py");
const SERVER_PY = join(LAB_DIR, "peers", "py", "server.py");

type Flavour = "shipped" | "inline" | "modern";
const FLAG: Record<Flavour, string[]> = { shipped: [], inline: ["--inline"], modern: ["--modern"] };

function pythonClient(name: string, flavour: Flavour, meaning: string): ClientPeer {
  return {
    name,
    sdk: SDK,
    loops: ["sdk"],
    meaning,
    era: flavour === "modern" ? "2026-07-28" : "2025-11-25",
    // py-inline is 2.3.0 with an option the lab forces: the 1.x ordering, not a shipped default
    ...(flavour === "inline" && { reconfigured: "its JSONRPCDispatcher built with inline_methods={'elicitation/create'}" }),
    unavailable: venvProblem,
    driver: {
      kind: "process",
      command: (planFile, eventsFile) => ({
        command: VENV_PYTHON,
        args: [CLIENT_PY, "--plan", planFile, "--events", eventsFile, ...FLAG[flavour]],
        fork: "python",
      }),
    },
  };
}

export const PY_CLIENT = pythonClient("py", "shipped", "the Python SDK 2.3.0 ClientSession as shipped (its JSONRPCDispatcher spawns each inbound request's handler)");

export const PY_INLINE_CLIENT = pythonClient(
  "py-inline",
  "inline",
  "the Python SDK 2.3.0 ClientSession with its own JSONRPCDispatcher built with inline_methods={'elicitation/create'}: the 1.x ordering, in real SDK code",
);

export const PY_MODERN_CLIENT = pythonClient(
  "py-modern",
  "modern",
  "the Python SDK 2.3.0 high-level Client pinned to 2026-07-28 (mode='2026-07-28': no probe, no initialize): input-required rounds instead of server-to-client requests",
);

export const PY_SERVER: ServerPeer = {
  name: "py",
  sdk: SDK,
  meaning: "the calculate server on the Python SDK 2.3.0 MCPServer (ctx.elicit and Resolve/Elicit)",
  unavailable: venvProblem,
  child: {
    writesEvents: false,
    // -B: server.py imports vocabulary.py next to it; write no __pycache__ into the source tree
    command: () => ({ command: VENV_PYTHON, args: ["-B", SERVER_PY], fork: "python" }),
  },
};
