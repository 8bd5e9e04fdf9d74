// `ask_field` on the ts1 server (issue #16): asks for one field of one schema kind
// (lab/plan/vocabulary.ts) through the SDK's own elicitInput, then the kind's strict app check.
// The same careful path as ask-form.ts, reporting which layer refused instead of computing.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpError, type CallToolResult, type ElicitRequestFormParams, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { ELICITATION_TIMEOUT_MS } from "./ask-form.js";
import { FIELD_KINDS, fieldFrom, findKind, kindSchema, type AskFieldResult, type FieldKind } from "../../plan/vocabulary.js";

export const fieldMessage = (kind: string) => `Synthetic form: one field of kind ${kind}.`;

export function registerAskField(mcp: McpServer): void {
  mcp.registerTool(
    "ask_field",
    {
      description: "Asks the client for one synthetic field of the named schema kind and reports who refused the answer, if anyone.",
      inputSchema: { kind: z.enum(FIELD_KINDS.map((k) => k.name) as [string, ...string[]]) },
    },
    async ({ kind }): Promise<CallToolResult> => {
      const result = await askField(mcp, findKind(kind)!);
      return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result as unknown as Record<string, unknown> };
    },
  );
}

async function askField(mcp: McpServer, k: FieldKind): Promise<AskFieldResult> {
  const server = mcp.server;
  const kind = k.name;
  // The SDK normalises a legacy empty `elicitation: {}` to `{ form: {} }` when it parses initialize.
  if (server.getClientCapabilities()?.elicitation?.form === undefined) return { kind, status: "unsupported" };
  let answer: ElicitResult;
  try {
    // Sent exactly as written: the lab asks what the SDKs do with it, including the kinds
    // outside the flat primitive vocabulary, so the type is asserted, not proven.
    const requestedSchema = kindSchema(k) as ElicitRequestFormParams["requestedSchema"];
    answer = await server.elicitInput({ mode: "form", message: fieldMessage(kind), requestedSchema }, { timeout: ELICITATION_TIMEOUT_MS });
  } catch (error) {
    // elicitInput validates accepted content itself (server/index.js:356-362) and throws -32602.
    if (error instanceof McpError && error.code === -32602 && /does not match requested schema/.test(error.message)) {
      return { kind, status: "invalid_content", rejectedBy: "sdk" };
    }
    // An McpError is the peer's JSON-RPC error (or a timeout); a plain Error is the SDK refusing
    // before anything went out (server/index.js:351-352).
    if (error instanceof McpError) return { kind, status: "protocol_error", code: error.code };
    return { kind, status: "not_sent", reason: String((error as Error)?.message ?? error).split("\n")[0]! };
  }
  return fieldFrom(k, answer);
}
