// The openai-agents peer: @openai/agents-core 0.20.0's MCPServerStdio (lab/peers/openai-agents/client.ts),
// installed apart (package.json here: from 0.15.0 it depends on openai ^7.2.0, whose engines say node
// >=22) and run under Node 22 in a process of its own (lab/peers/node22; adapter.ts). Since 0.15 its MCP
// client is @modelcontextprotocol/client 2.x (an optional dependency, resolved to 2.4.0 by the lockfile)
// with versionNegotiation 'auto', no longer the 1.x SDK. 0.14.3's column is not kept: it declared no
// capability either and registered no handler, so it told the same cells on the older SDK.
import type { ClientPeer } from "../../plan/peer.js";
import { npmPackage, sdkLabel } from "../installed.js";
import { npmApartBuild, npmApartDir } from "../npm-apart.js";
import { node22Peer } from "../node22/index.js";

export const OPENAI_AGENTS_BUILD = npmApartBuild("openai-agents", "@openai/agents-core");
const NODE22 = node22Peer("openai-agents", OPENAI_AGENTS_BUILD);
export const OPENAI_AGENTS_DRIVER_BUILD = NODE22.bundle;

export const OPENAI_AGENTS_CLIENT: ClientPeer = {
  name: "openai-agents",
  sdk: sdkLabel(
    "@openai/agents-core {} (on client {})",
    npmPackage("@openai/agents-core", { dir: npmApartDir("openai-agents") }),
    npmPackage("@modelcontextprotocol/client", { dir: npmApartDir("openai-agents"), via: "@openai/agents-core" }),
  ),
  loops: ["sdk"],
  meaning:
    "the OpenAI Agents SDK's MCPServerStdio (spawning the lab's bridge): connect, listTools, callToolResult on a @modelcontextprotocol/client 2.x Client negotiating 'auto'; it declares no capability and registers no request handler (shims/mcp-server/node.mjs:283-291)",
  era: "auto",
  unavailable: NODE22.unavailable,
  driver: NODE22.driver,
};
