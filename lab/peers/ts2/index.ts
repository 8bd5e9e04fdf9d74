// The ts2 peers: the TypeScript SDK v2 split packages (@modelcontextprotocol/client and /server
// 2.4.0). The client runs in this process over the lab's recording transport (the v2 Transport
// only adds optional members: transport-compat.ts); `ts2` negotiates as the SDK does by default
// (legacy: initialize, 2025-11-25), `ts2-modern` pins 2026-07-28 (input-required rounds, no
// server-to-client requests). The server serves both eras (serve.ts), here or as a stdio child.
import type { Scenario } from "../../plan/scenario.js";
import { sessionPlan } from "../../plan/scenario.js";
import { CALL_TIMEOUT_MS } from "../../plan/bounds.js";
import type { Recorder } from "../../history/timeline.js";
import type { ClientPeer, ServerPeer } from "../../plan/peer.js";
import { PROJECT_ROOT } from "../../paths.js";
import { npmPackage, sdkLabel } from "../installed.js";
import { ensureTs2ChildBuilt, TS2_CHILD_ARGS } from "./build.js";
import type { Negotiation } from "./client.js";
// The client's module loads on first use; the server's in load(), before a session begins:
// connect() must attach the SDK to the transport at once, since a relayed driver may already be writing.
import type { serveTs2 as Serve } from "./serve.js";

let serveTs2: typeof Serve | undefined;

// one version shown when the two packages agree (they are released together)
const SDK = sdkLabel("@modelcontextprotocol/client+server {}", [
  npmPackage("@modelcontextprotocol/client", { dir: PROJECT_ROOT }),
  npmPackage("@modelcontextprotocol/server", { dir: PROJECT_ROOT }),
]);

function ts2Client(name: string, negotiation: Negotiation, meaning: string): ClientPeer {
  return {
    name,
    sdk: SDK,
    loops: ["sdk", "serial"],
    meaning,
    era: negotiation === "legacy" ? "2025-11-25" : negotiation,
    unavailable: () => undefined,
    driver: {
      kind: "in-process",
      run: async (scenario: Scenario, transport, recorder: Recorder) => {
        const { runTs2Session } = await import("./client.js");
        const outcome = await runTs2Session(sessionPlan(scenario, CALL_TIMEOUT_MS), transport, recorder, { negotiation });
        if (outcome.errors.length > 0) throw new Error(outcome.errors.join("; "));
      },
    },
  };
}

export const TS2_CLIENT = ts2Client("ts2", "legacy", "the TypeScript SDK v2 (2.4.0) Client, negotiating as it does by default (legacy: initialize, 2025-11-25)");
export const TS2_MODERN_CLIENT = ts2Client("ts2-modern", "2026-07-28", "the TypeScript SDK v2 (2.4.0) Client pinned to 2026-07-28: input-required rounds instead of server-to-client requests");

export const TS2_SERVER: ServerPeer = {
  name: "ts2",
  sdk: SDK,
  meaning: "the calculate server on the TypeScript SDK v2 McpServer, both eras (serveStdio decides from the opening message)",
  unavailable: () => undefined,
  load: async () => void (serveTs2 ??= (await import("./serve.js")).serveTs2),
  inProcess: (recorder) => {
    const serve = serveTs2;
    if (!serve) throw new Error("the ts2 server was used before its load()");
    let handle: ReturnType<typeof Serve> | undefined;
    return {
      connect: async (transport) => {
        handle = serve(transport, (error) => recorder.event("server", "sdk.error", { detail: { message: error.message } }));
      },
      close: async () => handle?.close(),
    };
  },
  child: { prepare: ensureTs2ChildBuilt, writesEvents: false, command: () => ({ command: process.execPath, args: [...TS2_CHILD_ARGS] }) },
};
