// The mastra peer: @mastra/mcp 2.0.0, the newest (on @modelcontextprotocol/client 2.0.0, and
// @mastra/core 1.71.0, its peer), installed apart (package.json here): every @mastra/mcp release from
// 1.0.0 declares engines node >=22.13.0, and the root's `npm ci` must not warn on Node 20. It runs
// under Node 22 in a process of its own per session (lab/peers/node22; adapter.ts runs client.ts),
// which also keeps the SIGTERM and SIGHUP listeners each connected MCPClient adds to the process
// (registerProcessHooks, dist/index.js:23466-23479) to one of each per process. No server peer.
import type { ClientPeer } from "../../plan/peer.js";
import { npmPackage, sdkLabel } from "../installed.js";
import { npmApartBuild, npmApartDir } from "../npm-apart.js";
import { node22Peer } from "../node22/index.js";

export const MASTRA_BUILD = npmApartBuild("mastra", "@mastra/mcp");
const NODE22 = node22Peer("mastra", MASTRA_BUILD);
export const MASTRA_DRIVER_BUILD = NODE22.bundle;
const SDK = sdkLabel(
  "@mastra/mcp {} (on client {})",
  npmPackage("@mastra/mcp", { dir: npmApartDir("mastra") }),
  npmPackage("@modelcontextprotocol/client", { dir: npmApartDir("mastra"), via: "@mastra/mcp" }),
);

export const MASTRA_CLIENT: ClientPeer = {
  name: "mastra",
  sdk: SDK,
  loops: ["sdk"],
  meaning:
    "Mastra's MCPClient (stdio server: the lab's bridge) pinned to protocolVersion 'legacy', inputRequests as the form handler: a @modelcontextprotocol/client 2.0.0 Client underneath (index.js:23167-23188)",
  era: "2025-11-25",
  unavailable: NODE22.unavailable,
  driver: NODE22.driver,
};
