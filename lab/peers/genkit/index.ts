// The genkit peer: @genkit-ai/mcp 1.42.0 (genkit 1.42.0) in this process over the session's own
// transport (lab/peers/genkit/client.ts). There is no server peer.
import { PROJECT_ROOT } from "../../paths.js";
import { npmPackage, sdkLabel } from "../installed.js";
import { noFormClient } from "../no-form/peer.js";

export const GENKIT_CLIENT = noFormClient({
  name: "genkit",
  sdk: sdkLabel(
    "@genkit-ai/mcp {} (on sdk {})",
    npmPackage("@genkit-ai/mcp", { dir: PROJECT_ROOT }),
    npmPackage("@modelcontextprotocol/sdk", { dir: PROJECT_ROOT, via: "@genkit-ai/mcp" }),
  ),
  meaning: "Genkit's createMcpClient over the lab's transport (a custom transport), getActiveTools and each tool action: it declares roots only and registers no elicitation handler (client/client.js:129-136)",
  unavailable: () => undefined,
  load: async () => (await import("./client.js")).GENKIT,
});
