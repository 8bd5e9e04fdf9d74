// Small pieces the v2 server's tools share: argument schemas, the era and capability checks, and
// how a failed request becomes a protocol_error result.
import {
  CLIENT_CAPABILITIES_META_KEY,
  fromJsonSchema,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  SdkError,
  type CallToolResult,
  type ClientCapabilities,
  type JsonSchemaType,
  type McpServer,
  type ServerContext,
  type StandardSchemaWithJSON,
} from "@modelcontextprotocol/server";
import type { CalculateResult } from "../../plan/form.js";

/** Bound on the server's wait for each answer (every wait has one); the ts1 server uses the same. */
export const TS2_ELICITATION_TIMEOUT_MS = 10_000;
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/**
 * A tool's argument schema from plain JSON Schema. The v2 SDK converts a zod schema with
 * `~standard.jsonSchema` (zod >= 4.2); the lab pins zod 4.1.12, for which the SDK falls back to its
 * own z.toJSONSchema and warns on stderr. fromJsonSchema avoids both; ajv (the SDK's default
 * validator) checks the arguments. Not strict, like the ts1 server's z.object: extra keys pass.
 */
export function objectArgs<T>(properties: Record<string, JsonSchemaType>): StandardSchemaWithJSON<T, T> {
  return fromJsonSchema<T>({ type: "object", properties });
}

/** The per-request envelope's keys (typed `{}` in 2.4.0's d.mts, so read as a record). */
function envelope(ctx: ServerContext): Record<string, unknown> | undefined {
  return ctx.mcpReq.envelope as Record<string, unknown> | undefined;
}

/** True when this request is served on 2026-07-28: only then does it carry the _meta envelope. */
export function isModernRequest(ctx: ServerContext): boolean {
  const version = envelope(ctx)?.[PROTOCOL_VERSION_META_KEY];
  return typeof version === "string" && version >= MODERN_PROTOCOL_VERSION;
}

/**
 * Whether the client declared form elicitation: from this request's envelope on 2026-07-28, from
 * initialize on 2025-11-25 (where the SDK's schema turns a bare `elicitation: {}` into form).
 */
export function clientSupportsForm(mcp: McpServer, ctx: ServerContext): boolean {
  const declared = isModernRequest(ctx)
    ? (envelope(ctx)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
    : mcp.server.getClientCapabilities();
  return declared?.elicitation?.form !== undefined;
}

export type Ts2ErrorResult = CalculateResult & {
  /** v2 SdkErrors (raised locally, never on the wire) carry a string code; `code` is then 0 */
  sdkCode?: string;
};

export function protocolError(error: unknown): Ts2ErrorResult {
  if (error instanceof ProtocolError) return { status: "protocol_error", computed: false, value: null, code: error.code };
  if (error instanceof SdkError) return { status: "protocol_error", computed: false, value: null, code: 0, sdkCode: String(error.code) };
  const code = (error as { code?: unknown } | null)?.code;
  return { status: "protocol_error", computed: false, value: null, code: typeof code === "number" ? code : 0 };
}

export function structured(result: object): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(result) }],
    structuredContent: result as Record<string, unknown>,
  };
}
