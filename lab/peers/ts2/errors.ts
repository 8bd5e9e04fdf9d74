// How a v2 error is recorded. ProtocolError carries a JSON-RPC code: from an error response, or
// raised locally by the SDK's own validation (e.g. the client's elicitation/create wrapper, -32602).
// SdkError is raised locally (timeouts, era gates, negotiation) and carries a STRING code, which
// is kept apart as sdkCode so `code` stays a number or null, as in the other drivers' events.
import { ProtocolError, SdkError } from "@modelcontextprotocol/client";

export type ErrorInfo = {
  code: number | null;
  message: string;
  type: string;
  sdkCode?: string;
  timeoutMs?: number;
};

/** The error classes of one copy of the package: the lab's, or a history release's (lab/peers/ts2/history-client.ts). */
export type ErrorClasses = { ProtocolError: typeof ProtocolError; SdkError: typeof SdkError };

export const errorInfo = (error: unknown): ErrorInfo => errorInfoWith({ ProtocolError, SdkError })(error);

export const errorInfoWith = ({ ProtocolError, SdkError }: ErrorClasses) => (error: unknown): ErrorInfo => {
  if (error instanceof ProtocolError) return { code: error.code, message: error.message, type: "ProtocolError" };
  if (error instanceof SdkError) {
    // a request timeout carries its configured length ({ timeout }): what ended the wait, as evidence
    const timeout = (error.data as { timeout?: unknown } | undefined)?.timeout;
    return { code: null, message: error.message, type: "SdkError", sdkCode: String(error.code), ...(typeof timeout === "number" && { timeoutMs: timeout }) };
  }
  // The ts1 SDK's McpError, or another package's copy of these classes: read the fields.
  const e = error as { code?: unknown; message?: unknown; name?: unknown } | null;
  return {
    code: typeof e?.code === "number" ? e.code : null,
    message: typeof e?.message === "string" ? e.message : String(error),
    type: typeof e?.name === "string" ? e.name : typeof error,
    ...(typeof e?.code === "string" && { sdkCode: e.code }),
  };
};
