// `ask_field` on the v2 server (issue #16): asks for one field of a vocabulary kind
// (lab/plan/vocabulary.ts) through the SDK's own high-level path, ctx.mcpReq.elicitInput, and
// says which layer refused the answer. Legacy era (2025-11-25) only: on 2026-07-28 the SDK refuses
// elicitInput before sending anything, which this tool reports as not_sent.
import { fromJsonSchema, ProtocolError, SdkError, SdkErrorCode, type ElicitRequestFormParams, type ElicitResult, type McpServer, type ServerContext } from "@modelcontextprotocol/server";
import { FIELD_KINDS, fieldFrom, findKind, kindSchema, type AskFieldResult } from "../../plan/vocabulary.js";
import { clientSupportsForm, structured, TS2_ELICITATION_TIMEOUT_MS } from "./server-support.js";

export const ASK_FIELD_MESSAGE = "Synthetic form field only: please fill in one value.";

/** SdkError codes the v2 SDK raises before the request reaches the transport (nothing sent). */
const BEFORE_SENDING: readonly string[] = [SdkErrorCode.CapabilityNotSupported, SdkErrorCode.MethodNotSupportedByProtocolVersion];

const ASK_FIELD_ARGS = fromJsonSchema<{ kind: string }>({
  type: "object",
  properties: { kind: { type: "string", enum: FIELD_KINDS.map((k) => k.name) } },
  required: ["kind"],
});

export function registerTs2AskField(mcp: McpServer): void {
  mcp.registerTool(
    "ask_field",
    { description: "Asks the client for one synthetic form field of the given schema kind and reports which layer refused the answer.", inputSchema: ASK_FIELD_ARGS },
    async ({ kind }, ctx) => structured(await askField(mcp, ctx, kind)),
  );
}

async function askField(mcp: McpServer, ctx: ServerContext, name: string): Promise<AskFieldResult> {
  const kind = findKind(name)!; // the argument schema's enum admits only known kinds
  if (!clientSupportsForm(mcp, ctx)) return { kind: name, status: "unsupported" };
  // Sent exactly as the vocabulary states it, also the kinds outside the flat vocabulary: the
  // SDK's types forbid them, its code checks nothing outgoing (that is the question asked).
  const params = { mode: "form", message: ASK_FIELD_MESSAGE, requestedSchema: kindSchema(kind) } as unknown as ElicitRequestFormParams;
  let answer: ElicitResult;
  try {
    // Deprecated in v2 (refused on 2026-07-28); checks accepted content against requestedSchema.
    answer = await ctx.mcpReq.elicitInput(params, { timeout: TS2_ELICITATION_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof SdkError && BEFORE_SENDING.includes(String(error.code))) {
      return { kind: name, status: "not_sent", reason: error.message.split("\n")[0]! };
    }
    // elicitInput's own check of accepted content against requestedSchema (ajv): -32602.
    if (error instanceof ProtocolError && error.code === -32602 && /does not match requested schema/.test(error.message)) {
      return { kind: name, status: "invalid_content", rejectedBy: "sdk" };
    }
    const code = error instanceof ProtocolError ? error.code : 0; // 0: a local SdkError (string code), never on the wire
    return { kind: name, status: "protocol_error", code };
  }
  return fieldFrom(kind, answer);
}
