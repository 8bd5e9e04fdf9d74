// The strands-ts peer: @strands-agents/sdk (the Strands Agents TypeScript SDK) and its McpClient,
// on @modelcontextprotocol/sdk 1.x (a peer dependency, ^1.25.2, pinned in package.json here),
// installed apart: the package declares engines node >=22.0.0. It runs as a driver in its own
// process under build/node22's node (lab/peers/node22: adapter.ts, bundled with client.ts, the session).
// There is no server peer (strands-agents' MCP support is a client).
import type { ClientPeer } from "../../plan/peer.js";
import { npmPackage, sdkLabel } from "../installed.js";
import { npmApartBuild, npmApartDir } from "../npm-apart.js";
import { node22Peer } from "../node22/index.js";

export const STRANDS_TS_BUILD = npmApartBuild("strands-ts", "@strands-agents/sdk");
const NODE22 = node22Peer("strands-ts", STRANDS_TS_BUILD);
export const STRANDS_TS_DRIVER_BUILD = NODE22.bundle;
const DIR = npmApartDir("strands-ts");
const SDK = sdkLabel(
  "@strands-agents/sdk {} (on sdk {})",
  npmPackage("@strands-agents/sdk", { dir: DIR }),
  npmPackage("@modelcontextprotocol/sdk", { dir: DIR }),
);

export const STRANDS_TS_CLIENT: ClientPeer = {
  name: "strands-ts",
  sdk: SDK,
  loops: ["sdk"],
  meaning:
    "Strands Agents' TypeScript McpClient as shipped, its elicitationCallback the form handler: an @modelcontextprotocol/sdk 1.x Client underneath, the callback its elicitation/create handler with nothing around it (no queue, lock or time limit; dist/src/mcp/client.js:143-148), under Node 22",
  era: "2025-11-25",
  unavailable: NODE22.unavailable,
  driver: NODE22.driver,
};
