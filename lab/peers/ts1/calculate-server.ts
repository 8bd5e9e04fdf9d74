// The synthetic server: one tool, `calculate`, that asks the client for two integers through
// form elicitation. Nothing real happens: no accounts, messages, payments or files.
// Transport-free, so the same module serves in memory and as a stdio child.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ElicitResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { registerAskField } from "./ask-field.js";
import { askAndCalculate, ELICITATION_MESSAGE, ELICITATION_TIMEOUT_MS, protocolError } from "./ask-form.js";
import { registerCancelTools, watchedCall, type ServerNote } from "./cancel-tools.js";
import { registerConcurrencyTools } from "./concurrency-tools.js";
import { registerSamplingRootsTools } from "./sampling-roots-tools.js";
import { registerProbeTools, type ProbeListener } from "./probe-tools.js";
import { requestedSchema, type CalculateResult } from "../../plan/form.js";
import { POLICIES, type Policy } from "../../plan/tool-suite.js";
import { askByUrl } from "./url-mode.js";

export { ELICITATION_MESSAGE, ELICITATION_TIMEOUT_MS } from "./ask-form.js";
export const SERVER_INFO = { name: "mcp-reentrancy-lab", version: "0.1.0" };


/** `note` records the server's own events (a tool whose call was cancelled); absent: none. */
export function createCalculateServer(note?: ServerNote, onProbe?: ProbeListener): McpServer {
  const mcp = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
  const server = mcp.server;

  mcp.registerTool(
    "calculate",
    {
      description: "Multiplies two integers that it asks the client for (synthetic; 3 x 7 = 21).",
      inputSchema: { policy: z.enum(POLICIES).optional() },
    },
    async ({ policy = "validated" }, extra): Promise<CallToolResult> => {
      // Plain elicitInput does not link this call's signal: a cancelled call leaves its form open.
      return watchedCall(extra, "calculate", note, () => calculate(policy));
    },
  );

  async function calculate(policy: Policy): Promise<CalculateResult> {
    if (policy === "url") return askByUrl(server, ELICITATION_TIMEOUT_MS).catch(protocolError);
    if (policy !== "unchecked" && !clientSupportsForm()) {
      return { status: "unsupported", computed: false, value: null };
    }
    if (policy !== "validated") {
      try {
        const raw = await server.request(
          { method: "elicitation/create", params: { mode: "form", message: ELICITATION_MESSAGE, requestedSchema: requestedSchema() } },
          ElicitResultSchema,
          { timeout: ELICITATION_TIMEOUT_MS },
        );
        return { status: "raw_response", computed: false, value: null, action: raw.action, content: raw.content ?? null };
      } catch (error) {
        return protocolError(error);
      }
    }
    return askAndCalculate(server);
  }

  function clientSupportsForm(): boolean {
    // The SDK normalises a legacy empty `elicitation: {}` to `{ form: {} }` when it parses initialize.
    return server.getClientCapabilities()?.elicitation?.form !== undefined;
  }

  registerConcurrencyTools(mcp);
  registerSamplingRootsTools(mcp);
  registerProbeTools(mcp, onProbe);
  registerCancelTools(mcp, note);
  registerAskField(mcp);
  return mcp;
}
