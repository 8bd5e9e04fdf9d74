// The genkit peer: @genkit-ai/mcp 1.42.0 (genkit 1.42.0) in this process over the session's own
// transport (lab/peers/genkit/client.ts). There is no server peer.
import { noFormClient } from "../no-form/peer.js";

export const GENKIT_CLIENT = noFormClient({
  name: "genkit",
  sdk: "@genkit-ai/mcp 1.42.0 (on sdk 1.32.2)",
  meaning: "Genkit's createMcpClient over the lab's transport (a custom transport), getActiveTools and each tool action: it declares roots only and registers no elicitation handler (client/client.js:129-136)",
  unavailable: () => undefined,
  load: async () => (await import("./client.js")).GENKIT,
});
