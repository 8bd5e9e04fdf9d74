// The calculate server on the TypeScript SDK v2 (@modelcontextprotocol/server 2.4.0): the same
// tools as the ts1 server (lab/calculate-server.ts, lab/concurrency-tools.ts), the same arguments
// and structuredContent shapes, plus `calculate_input`, which asks by RETURNING an input-required
// result, and two fault tools for tests. Nothing real happens: no accounts, messages or files.
// Transport-free: serve it with serveTs2() (lab/peers/ts2/serve.ts), in memory or as a stdio child.
import { POLICIES, type Policy } from "../../plan/tool-suite.js";
import {
  acceptedContent,
  inputRequired,
  inputResponse,
  McpServer,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { CalculateForm, requestedSchema, type CalculateResult } from "../../plan/form.js";
import { askAndCalculate, TS2_ELICITATION_MESSAGE } from "./ask-form.js";
import { registerTs2CancelTools } from "./cancel-tools.js";
import { registerTs2AskField } from "./ask-field.js";
import { registerTs2ConcurrencyTools } from "./concurrency-tools.js";
import { registerTs2RequestTools } from "./request-tools.js";
import { clientSupportsForm, objectArgs, protocolError, structured, TS2_ELICITATION_TIMEOUT_MS } from "./server-support.js";

export const TS2_SERVER_INFO = { name: "mcp-reentrancy-lab-ts2", version: "0.1.0" };
export { TS2_ELICITATION_MESSAGE } from "./ask-form.js";
/** The ts1 policies minus `url` (URL mode is not mirrored here). */
/** ts2 serves every policy but URL mode (lab/plan/tool-suite.ts) */
export const TS2_POLICIES = POLICIES.filter((p): p is Exclude<Policy, "url"> => p !== "url");
export type Ts2Policy = (typeof TS2_POLICIES)[number];
/** The key of calculate_input's one input request. */
export const FORM_KEY = "form";

const POLICY_ARGS = objectArgs<{ policy?: Ts2Policy }>({ policy: { type: "string", enum: [...TS2_POLICIES] } });
const NO_ARGS = objectArgs<Record<string, never>>({});

/**
 * A fresh v2 McpServer with the lab's tools. serveTs2 hands it to serveStdio as the factory, called
 * once per connection, plus once for a server/discover probe instance it may discard.
 */
export function createTs2Server(options: { supportedProtocolVersions?: string[] } = {}): McpServer {
  const mcp = new McpServer(TS2_SERVER_INFO, { capabilities: { tools: {} }, ...options });
  const server = mcp.server;

  mcp.registerTool(
    "calculate",
    {
      description: "Multiplies two integers that it asks the client for (synthetic; 3 x 7 = 21). Pushes elicitation/create in the 2025-11-25 era; returns input_required in 2026-07-28.",
      inputSchema: POLICY_ARGS,
    },
    async ({ policy = "validated" }, ctx): Promise<CallToolResult | InputRequiredResult> => {
      // A 2026-07-28 client's retry carries the answer: read it as calculate_input does.
      const view = inputResponse(ctx.mcpReq.inputResponses, FORM_KEY);
      if (view.kind !== "missing") return structured(readForm(ctx, view));
      const result = await calculate(policy, ctx);
      // In the 2026-07-28 era the SDK refuses elicitInput before sending anything; the careful
      // path then asks the way that era allows, by returning input_required (raw/unchecked keep
      // the refusal, as the interop finding to show).
      if (policy === "validated" && (result as { sdkCode?: unknown }).sdkCode === "METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION") return askForm(1);
      return structured(result);
    },
  );

  async function calculate(policy: Ts2Policy, ctx: ServerContext): Promise<CalculateResult> {
    if (policy !== "unchecked" && !clientSupportsForm(mcp, ctx)) {
      return { status: "unsupported", computed: false, value: null };
    }
    const params = { mode: "form" as const, message: TS2_ELICITATION_MESSAGE, requestedSchema: requestedSchema() };
    if (policy !== "validated") {
      try {
        // Low level: Server.request validates only the result envelope (by the era's codec).
        const raw = await server.request({ method: "elicitation/create", params }, { timeout: TS2_ELICITATION_TIMEOUT_MS });
        return { status: "raw_response", computed: false, value: null, action: raw.action, content: raw.content ?? null };
      } catch (error) {
        return protocolError(error);
      }
    }
    return askAndCalculate(ctx);
  }

  mcp.registerTool(
    "calculate_input",
    {
      description:
        "Like calculate, but asks by returning an input-required result: a legacy client gets elicitation/create " +
        "from the SDK's shim, a 2026-07-28 client retries tools/call with inputResponses.",
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      // requestState carries the round count; the client (or the legacy shim) echoes it verbatim.
      const rounds = Number(ctx.mcpReq.requestState<string>() ?? 0);
      const view = inputResponse(ctx.mcpReq.inputResponses, FORM_KEY);
      if (view.kind === "missing") {
        if (!clientSupportsForm(mcp, ctx)) return structured({ status: "unsupported", computed: false, value: null, rounds });
        return askForm(rounds + 1);
      }
      return structured({ ...readForm(ctx, view), rounds });
    },
  );

  registerTs2ConcurrencyTools(mcp);
  registerTs2RequestTools(mcp);
  registerTs2CancelTools(mcp);
  registerTs2AskField(mcp);
  registerFaultTools(mcp);
  return mcp;
}

function askForm(round: number): InputRequiredResult {
  return inputRequired({
    inputRequests: {
      [FORM_KEY]: inputRequired.elicit({ message: TS2_ELICITATION_MESSAGE, requestedSchema: requestedSchema() }),
    },
    requestState: String(round),
  });
}

/** The answer to calculate_input's form, with calculate's statuses. The SDK validates nothing here. */
function readForm(ctx: ServerContext, view: ReturnType<typeof inputResponse>): CalculateResult {
  if (view.kind !== "elicit") return { status: "invalid_response", computed: false, value: null };
  if (view.action === "decline") return { status: "declined", computed: false, value: null };
  if (view.action === "cancel") return { status: "cancelled", computed: false, value: null };
  if (view.content === undefined) return { status: "invalid_response", computed: false, value: null };
  const form = acceptedContent(ctx.mcpReq.inputResponses, FORM_KEY, CalculateForm);
  if (form === undefined) return { status: "invalid_content", computed: false, value: null, rejectedBy: "app" };
  return { status: "calculated", computed: true, value: form.units * form.unit_value };
}

/** Fault tools for tests: they misuse input_required on purpose. */
function registerFaultTools(mcp: McpServer): void {
  mcp.registerTool(
    "endless_input",
    { description: "Returns input_required every round and never completes (fault, tests only).", inputSchema: NO_ARGS },
    async (_args, ctx) => askForm(Number(ctx.mcpReq.requestState<string>() ?? 0) + 1),
  );

  const MALFORMED_ARGS = objectArgs<{ kind?: "entry" | "params" }>({ kind: { type: "string", enum: ["entry", "params"] } });
  mcp.registerTool(
    "malformed_input",
    {
      description:
        "Returns an input-required result whose inputRequests is malformed (fault, tests only): " +
        "entry: the entry is not an embedded request; params: an elicitation/create whose params break the schema.",
      inputSchema: MALFORMED_ARGS,
    },
    async ({ kind = "entry" }): Promise<CallToolResult | InputRequiredResult> => {
      // Hand-built literals: the builder would refuse these. The SDK says such literals are legal.
      const entry = kind === "entry" ? { notAMethod: true } : { method: "elicitation/create", params: { message: 42 } };
      return { resultType: "input_required", inputRequests: { [FORM_KEY]: entry } } as unknown as InputRequiredResult;
    },
  );
}
