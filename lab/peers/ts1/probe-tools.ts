// Probe tools on the calculate server: they tell ANY MCP client, from the server's side of the
// wire, whether its receive loop reads frames while an elicitation callback runs (so a callback
// that awaits its own session cannot deadlock it), the same while a sampling callback runs (a
// client's loop can differ by request type), and how it runs concurrent elicitations. Nothing
// real happens: the form asks only for a tick, the completion is never read, nothing is computed.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { fanOutParagraph, inferFanOut } from "./probe-infer.js";
import type { ProbedMethod } from "../../plan/tool-suite.js";
import { judgeLoop, loopParagraph, MIN_PINGS_FOR_SERIAL, type LoopObservation } from "./probe-judge.js";
import { MAX_PINGS, observeFanOut, observeLoop, PING_AFTER_WAIT_MS } from "./probe-observe.js";

export const PROBE_LIMIT = { min: 1_000, max: 120_000, default: 30_000 };
export const PING_INTERVAL = { min: 10, max: 1_000, default: 50 };
export const FAN_OUT_N = { min: 1, max: 16, default: 4 };

export const PROBE_MESSAGE =
  "Receive-loop probe (synthetic, nothing is computed): please wait a couple of seconds before you answer, then tick the box and accept.";

const limitArg = z
  .int()
  .min(PROBE_LIMIT.min)
  .max(PROBE_LIMIT.max)
  .optional()
  .describe(`the probe's own limit on the client's answer, ms (${PROBE_LIMIT.min}..${PROBE_LIMIT.max}, default ${PROBE_LIMIT.default})`);

function result(structured: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured };
}

export const PROBE_SAMPLING_MESSAGE =
  "Receive-loop probe (synthetic, nothing is computed): answer with any short completion; the words are not read.";

export type ProbeName = "receive_loop" | "fan_out" | "sampling";

/** Told each probe's structured result just before it is returned (serve --once). */
export type ProbeListener = (probe: ProbeName, result: Record<string, unknown>) => void;

const intervalArg = z.int().min(PING_INTERVAL.min).max(PING_INTERVAL.max).optional().describe(`ms between pings (${PING_INTERVAL.min}..${PING_INTERVAL.max}, default ${PING_INTERVAL.default})`);

/** A loop probe's structured result: the verdict, its evidence, and the observation it was judged from. */
function loopResult(probe: ProbeName, observation: LoopObservation, limitMs: number): { structured: Record<string, unknown>; text: string } {
  const judgement = judgeLoop(observation);
  const text = loopParagraph(observation, judgement);
  const e = observation.request;
  const asked = e ? { outcome: e.outcome, pendingMs: e.atMs, ...(e.action !== undefined && { action: e.action }), ...(e.content !== undefined && { content: e.content }), ...(e.error && { error: e.error }) } : { outcome: "not_sent" };
  const structured = {
    probe,
    method: observation.method,
    verdict: judgement.verdict,
    reason: judgement.reason,
    answeredWhilePending: judgement.answeredWhilePending > 0,
    firstPingReply: judgement.firstPingReply,
    pings: { intervalMs: observation.intervalMs, sent: judgement.pingsSent, answeredWhilePending: judgement.answeredWhilePending, answeredAfter: judgement.answeredAfter },
    [probe === "sampling" ? "sampling" : "elicitation"]: asked,
    readOrder: judgement.order,
    limitMs,
    // what the server saw, as judged: anyone can re-derive the verdict from it
    observation,
    text,
  };
  return { structured, text };
}

export function registerProbeTools(mcp: McpServer, onProbe?: ProbeListener): void {
  const server = mcp.server;
  const told = (probe: ProbeName, structured: Record<string, unknown>, text: string) => (onProbe?.(probe, structured), result(structured, text));

  // The two loop probes differ only in the request they keep pending.
  const loopProbes: { tool: string; probe: ProbeName; method: ProbedMethod; message: string; description: string }[] = [
    {
      tool: "probe_receive_loop",
      probe: "receive_loop",
      method: "elicitation/create",
      message: PROBE_MESSAGE,
      description:
        `Tests the calling client's receive loop. Sends one form elicitation/create (its message asks a person to wait a couple of seconds, then accept), then at once a ping, then a ping every pingIntervalMs while the elicitation is pending (at most ${MAX_PINGS}). ` +
        `Reports whether any ping was answered while the elicitation was pending, in what order the server read the replies, and a verdict: concurrent (a request sent from inside a callback will be read), serial (a callback that awaits its own session deadlocks until it times out) or inconclusive (answered before ${MIN_PINGS_FOR_SERIAL} pings could tell). ` +
        `Runs only if the client declared form elicitation and accepts. Bounded: an elicitation not answered within limitMs (default ${PROBE_LIMIT.default} ms) is withdrawn with notifications/cancelled and the probe reports that; pings still open ${PING_AFTER_WAIT_MS} ms after the answer are withdrawn too.`,
    },
    {
      tool: "probe_sampling",
      probe: "sampling",
      method: "sampling/createMessage",
      message: PROBE_SAMPLING_MESSAGE,
      description:
        `The receive-loop probe with a sampling/createMessage in place of the form: sends one (a synthetic prompt; the completion's words are not read), then at once a ping, then a ping every pingIntervalMs while it is pending (at most ${MAX_PINGS}). ` +
        `The same order-based verdict (concurrent, serial, inconclusive), measured while a SAMPLING callback runs: a client's loop can treat request kinds differently. ` +
        `Runs only if the client declared the sampling capability; an error reply is reported, not judged. Bounded as probe_receive_loop is (limitMs, default ${PROBE_LIMIT.default} ms).`,
    },
  ];
  for (const { tool, probe, method, message, description } of loopProbes) {
    const inputSchema = { pingIntervalMs: intervalArg, limitMs: limitArg };
    mcp.registerTool(tool, { description, inputSchema }, async ({ pingIntervalMs = PING_INTERVAL.default, limitMs = PROBE_LIMIT.default }) => {
      const { structured, text } = loopResult(probe, await observeLoop(server, method, pingIntervalMs, limitMs, message), limitMs);
      return told(probe, structured, text);
    });
  }

  mcp.registerTool(
    "probe_fan_out",
    {
      description:
        `Sends n form elicitation requests at once (1..${FAN_OUT_N.max}, default ${FAN_OUT_N.default}) and reports the order and times of the replies, with an INFERENCE (not a verdict) of how many callbacks the client ran at once, and its limits. ` +
        `Runs only if the client declared form elicitation and accepts every request. Bounded: requests not answered within limitMs (default ${PROBE_LIMIT.default} ms) are withdrawn with notifications/cancelled and reported.`,
      inputSchema: {
        n: z.int().min(FAN_OUT_N.min).max(FAN_OUT_N.max).optional().describe(`how many requests at once (${FAN_OUT_N.min}..${FAN_OUT_N.max}, default ${FAN_OUT_N.default})`),
        limitMs: limitArg,
      },
    },
    async ({ n = FAN_OUT_N.default, limitMs = PROBE_LIMIT.default }) => {
      const observation = await observeFanOut(server, n, limitMs, (i) => `${PROBE_MESSAGE} (${i} of ${n})`);
      const inference = inferFanOut(observation);
      const text = fanOutParagraph(observation, inference);
      const replies = [...(observation.replies ?? [])]
        .sort((a, b) => a.seq - b.seq)
        .map((r) => ({ request: r.request, outcome: r.outcome, atMs: r.atMs, ...(r.action !== undefined && { action: r.action }), ...(r.error && { error: r.error }) }));
      return told("fan_out", { probe: "fan_out", n, limitMs, replies, ...inference, observation, text }, text);
    },
  );
}
