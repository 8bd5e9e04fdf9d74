// A toy client peer, written for one test: a few dozen lines of plain JSON-RPC over the lab's
// Transport, no SDK client at all. It executes the scenario's callback data with the shared
// perform() and records the driver vocabulary. Registered like any peer, it shows a new column
// needs no edit to the runner, the checkers or the renderers.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { classify, errorOf, resultOf } from "../../lab/history/frames.js";
import type { Recorder } from "../../lab/history/timeline.js";
import { perform } from "../../lab/peers/perform.js";
import type { ClientPeer } from "../../lab/plan/peer.js";
import type { Scenario } from "../../lab/plan/scenario.js";

async function runToy(scenario: Scenario, transport: Transport, recorder: Recorder): Promise<void> {
  let nextId = 0;
  const waiting = new Map<number, { resolve(r: Record<string, unknown>): void; reject(e: Error): void }>();
  const request = (method: string, params: Record<string, unknown>, timeoutMs: number) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => (waiting.delete(id), reject(new Error(`${method} timed out`))), timeoutMs);
      waiting.set(id, { resolve: (r) => (clearTimeout(timer), resolve(r)), reject: (e) => (clearTimeout(timer), reject(e)) });
      void transport.send({ jsonrpc: "2.0", id, method, params } as JSONRPCMessage);
    });
  let call = "";
  let listed: string[] = [];
  let callbacks = 0;
  const names = (r: Record<string, unknown>) => (r.tools as { name: string }[]).map((t) => t.name);
  // Every inbound request is handled at once (a concurrent loop, like the SDK's).
  transport.onmessage = (message) => {
    const c = classify(message);
    if (c.frameType === "result" || c.frameType === "error") {
      const error = errorOf(message);
      if (error) waiting.get(Number(c.id))?.reject(new Error(String(error.message)));
      else waiting.get(Number(c.id))?.resolve(resultOf(message) ?? {});
      return;
    }
    // A ping is answered at once, as the MCP spec asks of every peer.
    if (c.frameType === "request" && c.method === "ping") return void transport.send({ jsonrpc: "2.0", id: c.id!, result: {} } as JSONRPCMessage);
    if (c.frameType !== "request" || c.method !== "elicitation/create") return;
    void (async () => {
      const n = ++callbacks;
      const plan = scenario.calls.find((p) => p.label === call)!;
      recorder.event("client", "callback.entered", { id: c.id!, origin: "server", method: c.method, detail: { n, call } });
      const answer = await perform(plan.callback!, {
        listedTools: listed,
        nested: async (method, timeoutMs) => {
          recorder.event("client", "nested.sent", { method });
          try {
            const result = await request(method, {}, timeoutMs);
            recorder.event("client", "nested.ok", { method });
            return method === "tools/list" ? names(result) : undefined;
          } catch (error) {
            recorder.event("client", "nested.failed", { method, detail: { code: null, message: String(error) } });
            throw error;
          }
        },
      });
      recorder.event("client", "callback.left", { id: c.id!, origin: "server", method: c.method, detail: { n, call, action: answer.action } });
      await transport.send({ jsonrpc: "2.0", id: c.id!, result: answer } as JSONRPCMessage);
    })().catch((error: unknown) => recorder.event("client", "sdk.error", { detail: { message: String(error) } }));
  };
  await transport.start();
  await request("initialize", { protocolVersion: "2025-11-25", capabilities: scenario.capabilities, clientInfo: { name: "toy", version: "0" } }, 5_000);
  await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" } as JSONRPCMessage);
  if (scenario.listToolsFirst) listed = names(await request("tools/list", {}, 5_000));
  for (const plan of scenario.calls) {
    call = plan.label;
    recorder.event("client", "call.started", { detail: { call } });
    const result = await request("tools/call", { name: plan.tool ?? "calculate", arguments: plan.args ?? {} }, 5_000);
    recorder.event("client", "tool.result", { detail: { call, result: result.structuredContent ?? null, isError: result.isError === true } });
  }
  await transport.close();
}

export const TOY_CLIENT: ClientPeer = {
  name: "toy",
  sdk: "a toy JSON-RPC client (tests only)",
  loops: ["sdk", "serial"],
  meaning: "a plain JSON-RPC client written for one test",
  era: "2025-11-25",
  unavailable: () => undefined,
  driver: { kind: "in-process", run: runToy },
};
