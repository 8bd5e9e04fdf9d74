// The ai-sdk peer: the Vercel AI SDK's own MCP client (@ai-sdk/mcp 2.0.99, its own JSON-RPC client,
// not the official SDK), installed apart (package.json here: from 2.0.0 its engines say node >=22)
// and run under Node 22 in a process of its own (lab/peers/node22: adapter.ts over the driver's
// stdio), which it takes as a custom MCPTransport (dist/index.js:2135-2137, :2407) with one catch
// added (transport.ts: what the SDK's own transports do when onmessage throws).
// 1.0.102, the column's release until Node 22 came, is not kept: 2.0.99's legacy path reads the same
// (onmessage starts each request's handler unawaited, the same ping and -32601 replies), so an older
// column would tell nothing the new one does not. There is no server peer: the package has no server.
import type { ClientPeer } from "../../plan/peer.js";
import { npmPackage, sdkLabel } from "../installed.js";
import { npmApartBuild, npmApartDir } from "../npm-apart.js";
import { node22Peer } from "../node22/index.js";

export const AI_SDK_BUILD = npmApartBuild("ai-sdk", "@ai-sdk/mcp");
const NODE22 = node22Peer("ai-sdk", AI_SDK_BUILD);
export const AI_SDK_DRIVER_BUILD = NODE22.bundle;
const SDK = sdkLabel("@ai-sdk/mcp {}", npmPackage("@ai-sdk/mcp", { dir: npmApartDir("ai-sdk") }));

export const AI_SDK_CLIENT: ClientPeer = {
  name: "ai-sdk",
  sdk: SDK,
  loops: ["sdk"],
  meaning:
    "the Vercel AI SDK's MCP client (@ai-sdk/mcp 2.0.99, createMCPClient over the driver's stdio, legacy initialize): its onmessage starts each inbound request's handler without awaiting it (dist/index.js:2411-2418)",
  era: "2025-11-25",
  unavailable: NODE22.unavailable,
  driver: NODE22.driver,
};
