// The synthetic server: one tool, `calculate`, that asks the client for two integers through
// form elicitation. Nothing real happens: no accounts, messages, payments or files.
// Transport-free, so the same module serves in memory and as a stdio child.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ElicitResultSchema, McpError, type CallToolResult, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { registerConcurrencyTools } from "./concurrency-tools.js";
import { registerProbeTools } from "./probe-tools.js";
import { CalculateForm, requestedSchema, type CalculateResult } from "../form.js";
import { askByUrl } from "./url-mode.js";

export const SERVER_INFO = { name: "mcp-reentrancy-lab", version: "0.1.0" };
export const ELICITATION_MESSAGE = "Synthetic arithmetic inputs only: how many units, and the value of one unit?";
/** Bound on the server's wait for the client's answer (every wait has one). */
export const ELICITATION_TIMEOUT_MS = 10_000;

/**
 * validated: the careful path: guard on the declared capability, SDK elicitInput, then the
 *            app's own strict zod check; only a valid accept computes.
 * raw:       low-level request, reports the raw action and content, never computes.
 * unchecked: diagnostic: skips the capability guard on purpose and sends the raw request.
 * url:       URL mode (lab/url-mode.ts): asks the client to open a link; an accept means only
 *            that the user agreed to open it; never computes.
 */
export const POLICIES = ["validated", "raw", "unchecked", "url"] as const;
export type Policy = (typeof POLICIES)[number];

export function createCalculateServer(): McpServer {
  const mcp = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
  const server = mcp.server;

  mcp.registerTool(
    "calculate",
    {
      description: "Multiplies two integers that it asks the client for (synthetic; 3 x 7 = 21).",
      inputSchema: { policy: z.enum(POLICIES).optional() },
    },
    async ({ policy = "validated" }): Promise<CallToolResult> => {
      return toolResult(await calculate(policy));
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
    let answer: ElicitResult;
    try {
      answer = await server.elicitInput(
        { mode: "form", message: ELICITATION_MESSAGE, requestedSchema: requestedSchema() },
        { timeout: ELICITATION_TIMEOUT_MS },
      );
    } catch (error) {
      // elicitInput validates accepted content itself and throws -32602 on a mismatch.
      if (error instanceof McpError && error.code === -32602 && /does not match requested schema/.test(error.message)) {
        return { status: "invalid_content", computed: false, value: null, rejectedBy: "sdk" };
      }
      return protocolError(error);
    }
    // Decline and cancel end the call, even when content came along with them.
    if (answer.action === "decline") return { status: "declined", computed: false, value: null };
    if (answer.action === "cancel") return { status: "cancelled", computed: false, value: null };
    if (answer.content === undefined) return { status: "invalid_response", computed: false, value: null };
    // The app keeps its own strict check whatever the SDK did: no coercion, no extra keys.
    const form = CalculateForm.safeParse(answer.content);
    if (!form.success) return { status: "invalid_content", computed: false, value: null, rejectedBy: "app" };
    return { status: "calculated", computed: true, value: form.data.units * form.data.unit_value };
  }

  function clientSupportsForm(): boolean {
    // The SDK normalises a legacy empty `elicitation: {}` to `{ form: {} }` when it parses initialize.
    return server.getClientCapabilities()?.elicitation?.form !== undefined;
  }

  registerConcurrencyTools(mcp);
  registerProbeTools(mcp);
  return mcp;
}

function protocolError(error: unknown): CalculateResult {
  const code = error instanceof McpError ? error.code : typeof (error as { code?: unknown })?.code === "number" ? (error as { code: number }).code : 0;
  return { status: "protocol_error", computed: false, value: null, code };
}

function toolResult(result: CalculateResult): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(result) }],
    structuredContent: result as unknown as Record<string, unknown>,
  };
}
