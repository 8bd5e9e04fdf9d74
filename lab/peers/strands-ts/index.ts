// The strands-ts peer: @strands-agents/sdk (the Strands Agents TypeScript SDK) and its McpClient,
// on @modelcontextprotocol/sdk 1.x (a peer dependency, ^1.25.2, pinned in package.json here),
// installed apart: the package declares engines node >=22.0.0. It runs as a driver in its own
// process under build/node22's node (lab/peers/node22/driver.ts; its adapter: client.ts). There is
// no server peer (strands-agents' MCP support is a client).
import { join } from "node:path";
import type { ClientPeer } from "../../plan/peer.js";
import { buildProblem } from "../cached-build.js";
import { npmPackage, sdkLabel } from "../installed.js";
import { npmApartBuild, npmApartDir } from "../npm-apart.js";
import { NODE22_BUILD, node22Driver } from "../node22/index.js";

export const STRANDS_TS_BUILD = npmApartBuild("strands-ts", "@strands-agents/sdk");
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
  unavailable: () => buildProblem(NODE22_BUILD) ?? buildProblem(STRANDS_TS_BUILD),
  driver: node22Driver(join(DIR, "client.ts")),
};
