// Runs one scenario as one fresh session: a real SDK Client against the calculate server,
// over whichever transport is given, recording the callback's side of the story.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  McpError,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { DispatchModel, OnDeadlock } from "../history/receive-loop.js";
import type { CallbackContext, Scenario } from "./scenario.js";
import { Recorder, type TimelineEvent, type WireFrame } from "../history/timeline.js";
import { withBound } from "./bound.js";

export const CLIENT_INFO = { name: "reentrancy-lab-client", version: "0.1.0" };
/** Bounds: no wait in the lab is open-ended. */
export const CALL_TIMEOUT_MS = 15_000;
export const SESSION_BOUND_MS = 30_000;
export const TRANSPORT_CLOSE_BOUND_MS = 15_000;

export interface SessionOptions {
  dispatch: DispatchModel;
  onDeadlock?: OnDeadlock;
}

/** What a transport hands the session: the client end, and how to close it afterwards. */
export interface OpenedTransport {
  client: Transport;
  /** Closes whatever the transport started and returns its own evidence (e.g. child lifecycle). */
  close(): Promise<Record<string, unknown>>;
}

export type OpenTransport = (recorder: Recorder, options: SessionOptions) => Promise<OpenedTransport>;

export interface SessionEvidence {
  scenario: string;
  dispatch: DispatchModel;
  transport: string;
  repeat: number;
  durationMs: number;
  /** failures of the session itself (not of expectations): bound exceeded, connect failed */
  errors: string[];
  transportEvidence: Record<string, unknown>;
  events: TimelineEvent[];
  wire: WireFrame[];
}

export async function runSession(
  scenario: Scenario,
  openTransport: OpenTransport,
  transportName: string,
  options: SessionOptions,
  repeat = 1,
): Promise<SessionEvidence> {
  const recorder = new Recorder();
  const errors: string[] = [];
  let transportEvidence: Record<string, unknown> = {};
  const client = new Client(CLIENT_INFO, { capabilities: scenario.capabilities });
  client.onerror = (error) => recorder.event("client", "sdk.error", { detail: { message: error.message } });
  // URL mode: the server says the out-of-band part of an elicitation finished.
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    recorder.event("client", "elicitation.complete", {
      method: notification.method,
      detail: { elicitationId: notification.params.elicitationId },
    });
  });

  let label = "";
  let listedTools: string[] = [];
  let callbacks = 0;
  if (scenario.capabilities.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra): Promise<ElicitResult> => {
      const n = ++callbacks;
      const call = label;
      const plan = scenario.calls.find((c) => c.label === call);
      const ids = { id: extra.requestId, origin: "server" as const, method: request.method };
      recorder.event("client", "callback.entered", { ...ids, detail: { n, call } });
      const ctx: CallbackContext = {
        client,
        extra,
        request,
        listedTools,
        nested: (method, send) => nested(recorder, method, send),
        note: (kind, detail) => recorder.event("client", kind, { detail }),
      };
      try {
        if (!plan) throw new Error(`no call plan is active for an elicitation during '${call}'`);
        const answer = await plan.answer(ctx);
        recorder.event("client", "callback.left", { ...ids, detail: { n, call, action: answer.action } });
        return answer;
      } catch (error) {
        recorder.event("client", "callback.left", { ...ids, detail: { n, call, error: String(error) } });
        throw error;
      }
    });
  }

  let opened: OpenedTransport | undefined;
  try {
    opened = await openTransport(recorder, options);
    const transport = opened.client;
    await withBound(
      (async () => {
        await client.connect(transport, { timeout: CALL_TIMEOUT_MS });
        if (scenario.listToolsFirst) {
          listedTools = (await client.listTools(undefined, { timeout: CALL_TIMEOUT_MS })).tools.map((t) => t.name);
        }
        for (const plan of scenario.calls) {
          label = plan.label;
          recorder.event("client", "call.started", { detail: { call: plan.label } });
          try {
            const result = await client.callTool(
              { name: plan.tool ?? "calculate", arguments: plan.args ?? {} },
              undefined,
              { timeout: CALL_TIMEOUT_MS },
            );
            recorder.event("client", "tool.result", {
              detail: { call: plan.label, result: result.structuredContent ?? null, isError: result.isError === true },
            });
          } catch (error) {
            recorder.event("client", "tool.result", { detail: { call: plan.label, error: errorInfo(error) } });
          }
        }
      })(),
      SESSION_BOUND_MS,
      `session ${scenario.name}`,
    );
  } catch (error) {
    errors.push(String(error instanceof Error ? error.message : error));
  } finally {
    try {
      await withBound(client.close(), 5_000, "client.close()");
    } catch (error) {
      errors.push(String(error));
    }
    if (opened) {
      try {
        // A child may take its 5 s grace, the kill wait and the drain wait: 15 s bounds them all.
        transportEvidence = await withBound(opened.close(), TRANSPORT_CLOSE_BOUND_MS, "closing the transport");
      } catch (error) {
        errors.push(`closing transport: ${String(error)}`);
      }
    }
  }
  return {
    scenario: scenario.name,
    dispatch: options.dispatch,
    transport: transportName,
    repeat,
    durationMs: recorder.now(),
    errors,
    transportEvidence,
    events: recorder.events,
    wire: recorder.wire,
  };
}

async function nested<T>(recorder: Recorder, method: string, send: () => Promise<T>): Promise<T> {
  recorder.event("client", "nested.sent", { method });
  try {
    const result = await send();
    recorder.event("client", "nested.ok", { method });
    return result;
  } catch (error) {
    recorder.event("client", "nested.failed", { method, detail: errorInfo(error) });
    throw error;
  }
}

export function errorInfo(error: unknown): { code: number | null; message: string } {
  if (error instanceof McpError) return { code: error.code, message: error.message };
  return { code: null, message: error instanceof Error ? error.message : String(error) };
}
