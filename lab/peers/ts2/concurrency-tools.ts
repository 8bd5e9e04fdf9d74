// fan_out and liveness on the v2 server, with the ts1 shapes (lab/concurrency-tools.ts).
// On 2025-11-25 they push server-to-client requests as ts1 does. On 2026-07-28 there is no
// server-to-client channel: fan_out asks for its n answers in ONE input-required round instead,
// and liveness, which needs a ping to the client, reports `unsupported`.
import { FAN_OUT_DEFAULT } from "../../plan/tool-suite.js";
import { acceptedContent, inputRequired, type InputRequest, type McpServer } from "@modelcontextprotocol/server";
import { CalculateForm, requestedSchema } from "../../plan/form.js";
import { clientSupportsForm, isModernRequest, objectArgs, structured, TS2_ELICITATION_TIMEOUT_MS } from "./server-support.js";

/** The same defaults and text as lab/concurrency-tools.ts (not imported: it loads the ts1 SDK). */
const MESSAGE = "Synthetic arithmetic inputs only";

const FAN_OUT_ARGS = objectArgs<{ n?: number }>({ n: { type: "integer", minimum: 1, maximum: 32 } });
const NO_ARGS = objectArgs<Record<string, never>>({});

/** The input-request keys of a modern fan_out round: q1..qn. */
export const fanOutKey = (i: number): string => `q${i + 1}`;

export function registerTs2ConcurrencyTools(mcp: McpServer): void {
  const server = mcp.server;
  const params = (message: string) => ({ mode: "form" as const, message, requestedSchema: requestedSchema() });

  mcp.registerTool(
    "fan_out",
    {
      description:
        "Asks for n answers at once (synthetic): n elicitation/create requests on 2025-11-25, " +
        "one input-required round with n input requests on 2026-07-28.",
      inputSchema: FAN_OUT_ARGS,
    },
    async ({ n = FAN_OUT_DEFAULT }, ctx) => {
      if (!clientSupportsForm(mcp, ctx)) return structured({ status: "unsupported", requests: 0, accepted: 0 });
      const label = (i: number) => `${MESSAGE} (${i + 1} of ${n})`;
      if (!isModernRequest(ctx)) {
        const answers = await Promise.all(
          Array.from({ length: n }, (_, i) => ctx.mcpReq.elicitInput(params(label(i)), { timeout: TS2_ELICITATION_TIMEOUT_MS })),
        );
        const accepted = answers.filter((a) => a.action === "accept" && CalculateForm.safeParse(a.content).success).length;
        return structured({ status: "all_answered", requests: n, accepted });
      }
      const responses = ctx.mcpReq.inputResponses;
      if (responses === undefined) {
        const inputRequests: Record<string, InputRequest> = {};
        for (let i = 0; i < n; i++) inputRequests[fanOutKey(i)] = inputRequired.elicit({ message: label(i), requestedSchema: requestedSchema() });
        return inputRequired({ inputRequests });
      }
      let accepted = 0;
      for (let i = 0; i < n; i++) if (acceptedContent(responses, fanOutKey(i), CalculateForm) !== undefined) accepted++;
      return structured({ status: "all_answered", requests: n, accepted });
    },
  );

  mcp.registerTool(
    "liveness",
    {
      description: "Asks the client for input and pings it while the client's callback runs (synthetic; 2025-11-25 only).",
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      if (isModernRequest(ctx) || !clientSupportsForm(mcp, ctx)) return structured({ status: "unsupported", action: null, pinged: false });
      // Both requests leave in this order before either is answered: the ping lands while the callback runs.
      const answer = ctx.mcpReq.elicitInput(params(MESSAGE), { timeout: TS2_ELICITATION_TIMEOUT_MS });
      // Server.ping() takes no options (60 s default wait); request() takes a timeout.
      const ping = server.request({ method: "ping" }, { timeout: TS2_ELICITATION_TIMEOUT_MS });
      const [result] = await Promise.all([answer, ping]);
      return structured({ status: "answered", action: result.action, pinged: true });
    },
  );
}
