// The ai-sdk peer: the Vercel AI SDK's own MCP client (@ai-sdk/mcp 1.0.102, its own JSON-RPC
// client, not the official SDK), in this process over the lab's recording transport, which it
// takes as a custom MCPTransport (node_modules/@ai-sdk/mcp/dist/index.mjs:2171-2173, :2313-2314)
// with one catch added (transport.ts: what the SDK's own transports do when onmessage throws).
// 1.0.102 is the newest release whose engines allow Node 20 (2.0.0 and later: node >=22).
// There is no server peer: the package has no server.
import { CALL_TIMEOUT_MS } from "../../plan/bounds.js";
import type { ClientPeer } from "../../plan/peer.js";
import { sessionPlan } from "../../plan/scenario.js";
import { PROJECT_ROOT } from "../../paths.js";
import { npmPackage, sdkLabel } from "../installed.js";
import { CaughtTransport } from "./transport.js";

const SDK = sdkLabel("@ai-sdk/mcp {}", npmPackage("@ai-sdk/mcp", { dir: PROJECT_ROOT }));

// @ai-sdk/mcp is loaded with the first session, not with the peer list (`peers`, `list`)
let client: typeof import("./client.js") | undefined;
const load = async () => void (client ??= await import("./client.js"));

export const AI_SDK_CLIENT: ClientPeer = {
  name: "ai-sdk",
  sdk: SDK,
  loops: ["sdk"],
  meaning:
    "the Vercel AI SDK's MCP client (@ai-sdk/mcp 1.0.102, createMCPClient over the lab's transport): its onmessage starts each inbound request's handler without awaiting it (dist/index.mjs:2320-2323)",
  era: "2025-11-25",
  unavailable: () => undefined,
  driver: {
    kind: "in-process",
    load,
    run: async (scenario, transport, recorder) => {
      await load();
      const errors = await client!.runAiSdkSession(sessionPlan(scenario, CALL_TIMEOUT_MS), new CaughtTransport(transport), recorder);
      if (errors.length > 0) throw new Error(errors.join("; "));
    },
  },
};
