// Two more tools on the same synthetic server, for the other shapes of the receive-loop cause:
// fan_out (many server-to-client requests at once) and liveness (a ping while a callback runs).
import { FAN_OUT_DEFAULT, SAMPLING_FAN_OUT_DEFAULT } from "../../plan/tool-suite.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { EmptyResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { CalculateForm, requestedSchema } from "../../plan/form.js";
import { orRefused } from "./sampling-roots-tools.js";

const TIMEOUT_MS = 10_000;
const MESSAGE = "Synthetic arithmetic inputs only";

export function registerConcurrencyTools(mcp: McpServer): void {
  const server = mcp.server;
  const ask = (message: string) =>
    server.elicitInput({ mode: "form", message, requestedSchema: requestedSchema() }, { timeout: TIMEOUT_MS });
  const structured = (result: Record<string, unknown>): CallToolResult => ({
    content: [{ type: "text", text: JSON.stringify(result) }],
    structuredContent: result,
  });
  const unsupported = () => server.getClientCapabilities()?.elicitation?.form === undefined;

  mcp.registerTool(
    "fan_out",
    {
      description: "Sends n elicitation requests at once and waits for all of them (synthetic).",
      inputSchema: { n: z.int().min(1).max(32).optional() },
    },
    async ({ n = FAN_OUT_DEFAULT }) => {
      if (unsupported()) return structured({ status: "unsupported", requests: 0, accepted: 0 });
      const answers = await Promise.all(Array.from({ length: n }, (_, i) => ask(`${MESSAGE} (${i + 1} of ${n})`)));
      const accepted = answers.filter((a) => a.action === "accept" && CalculateForm.safeParse(a.content).success).length;
      return structured({ status: "all_answered", requests: n, accepted });
    },
  );

  // python-sdk #2489's shape: n sampling requests at once. The client's answers are synthetic
  // completions; nothing here reads what they say, only that each came back.
  mcp.registerTool(
    "sample_fan_out",
    {
      description: "Sends n sampling/createMessage requests at once and waits for all of them (synthetic: no model is asked for anything real).",
      inputSchema: { n: z.int().min(1).max(16).optional() },
    },
    async ({ n = SAMPLING_FAN_OUT_DEFAULT }, extra) => {
      if (server.getClientCapabilities()?.sampling === undefined) return structured({ status: "unsupported", requests: 0, answered: 0 });
      const ask = (i: number) =>
        server.createMessage(
          { messages: [{ role: "user", content: { type: "text", text: `Synthetic: reply with anything (${i + 1} of ${n})` } }], maxTokens: 8 },
          { timeout: TIMEOUT_MS, relatedRequestId: extra.requestId },
        );
      // Every request is sent before any answer is awaited, and every answer is awaited, refusals too, so
      // the call ends after the last reply whatever the client said; the first refusal is the result.
      const settled = await Promise.allSettled(Array.from({ length: n }, (_, i) => ask(i)));
      const answered = settled.filter((s) => s.status === "fulfilled").length;
      const refusal = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
      const all = refusal ? Promise.reject(refusal.reason as Error) : Promise.resolve(answered);
      return orRefused(all, () => ({ status: "all_answered", requests: n, answered }), { requests: n, answered });
    },
  );

  mcp.registerTool(
    "liveness",
    { description: "Asks the client for input and pings it while the client's callback runs (synthetic)." },
    async () => {
      if (unsupported()) return structured({ status: "unsupported", action: null, pinged: false });
      // Both requests leave in this order before either is answered: the ping lands while the callback runs.
      const answer = ask(MESSAGE);
      // Server.ping() takes no options (server/index.js:286), so its wait would be the 60 s default.
      const ping = server.request({ method: "ping" }, EmptyResultSchema, { timeout: TIMEOUT_MS });
      const [result] = await Promise.all([answer, ping]);
      return structured({ status: "answered", action: result.action, pinged: true });
    },
  );
}
