// The openai-agents peer: @openai/agents-core 0.14.3's MCPServerStdio in this process
// (lab/peers/openai-agents/client.ts). 0.14.3 is the newest release that installs on Node 20
// without a warning: from 0.15.0 it depends on openai ^7.2.0, whose engines say node >=22.
import { PROJECT_ROOT } from "../../paths.js";
import { npmPackage, sdkLabel } from "../installed.js";
import { noFormClient } from "../no-form/peer.js";

export const OPENAI_AGENTS_CLIENT = noFormClient({
  name: "openai-agents",
  sdk: sdkLabel(
    "@openai/agents-core {} (on sdk {})",
    npmPackage("@openai/agents-core", { dir: PROJECT_ROOT }),
    npmPackage("@modelcontextprotocol/sdk", { dir: PROJECT_ROOT, via: "@openai/agents-core" }),
  ),
  meaning: "the OpenAI Agents SDK's MCPServerStdio (spawning the lab's bridge): connect, listTools, callToolResult; it declares no capability and registers no request handler (shims/mcp-server/node.mjs:241-246)",
  unavailable: () => undefined,
  load: async () => (await import("./client.js")).OPENAI_AGENTS,
});
