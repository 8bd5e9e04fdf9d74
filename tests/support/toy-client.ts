// A toy client peer, written for tests: plain JSON-RPC over the lab's Transport, no SDK client at
// all. It executes the scenario's callback data with the shared perform() and CallBook, and records
// the driver vocabulary. Registered like any peer, it shows a new column needs no edit to the
// runner, the checkers, the renderers, `all`, the card or the probe table. Its behaviour, which
// its hand-written expectations cite: every inbound request is handled at once (a concurrent loop);
// a ping is answered at once; a form the server withdraws (notifications/cancelled) aborts its
// callback and gets no answer (the spec: the receiver SHOULD not respond); giving up on a call
// sends notifications/cancelled for it.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { cancelledRequestId, classify, errorOf, resultOf } from "../../lab/history/frames.js";
import type { Recorder } from "../../lab/history/timeline.js";
import { CallBook } from "../../lab/peers/call-book.js";
import { perform } from "../../lab/peers/perform.js";
import { CALL_TIMEOUT_MS, withBound } from "../../lab/plan/bounds.js";
import type { ClientPeer } from "../../lab/plan/peer.js";
import type { Scenario } from "../../lab/plan/scenario.js";

/** A JSON-RPC error as the toy received it: the error's own code and message. */
class RpcError extends Error {
  constructor(readonly code: number | null, message: string) {
    super(message);
  }
}
const errorInfo = (error: unknown) => ({ code: error instanceof RpcError ? error.code : null, message: error instanceof Error ? error.message : String(error) });

async function runToy(scenario: Scenario, transport: Transport, recorder: Recorder): Promise<void> {
  let nextId = 0;
  const waiting = new Map<number, { resolve(r: Record<string, unknown>): void; reject(e: Error): void }>();
  const request = (method: string, params: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      const settle = () => (clearTimeout(timer), waiting.delete(id), signal?.removeEventListener("abort", giveUp));
      const timer = setTimeout(() => (settle(), reject(new RpcError(null, `${method} timed out`))), timeoutMs);
      // Giving up: the request is withdrawn on the wire, and its reply, if one comes, ignored.
      const giveUp = () => {
        settle();
        void transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: String(signal!.reason) } } as JSONRPCMessage);
        reject(new RpcError(null, `gave up: ${String(signal!.reason)}`));
      };
      signal?.addEventListener("abort", giveUp, { once: true });
      waiting.set(id, { resolve: (r) => (settle(), resolve(r)), reject: (e) => (settle(), reject(e)) });
      void transport.send({ jsonrpc: "2.0", id, method, params } as JSONRPCMessage);
    });
  let call = "";
  let listed: string[] = [];
  let callbacks = 0;
  const book = new CallBook();
  const open = new Map<string, AbortController>();
  const names = (r: Record<string, unknown>) => (r.tools as { name: string }[]).map((t) => t.name);
  const nested = async (method: "tools/list" | "ping", timeoutMs: number) => {
    recorder.event("client", "nested.sent", { method });
    try {
      const result = await request(method, {}, timeoutMs);
      recorder.event("client", "nested.ok", { method });
      return method === "tools/list" ? names(result) : undefined;
    } catch (error) {
      recorder.event("client", "nested.failed", { method, detail: errorInfo(error) });
      throw error;
    }
  };
  transport.onmessage = (message) => {
    const c = classify(message);
    if (c.frameType === "result" || c.frameType === "error") {
      const error = errorOf(message);
      if (error) waiting.get(Number(c.id))?.reject(new RpcError(typeof error.code === "number" ? error.code : null, String(error.message)));
      else waiting.get(Number(c.id))?.resolve(resultOf(message) ?? {});
      return;
    }
    if (c.frameType === "notification" && c.method === "notifications/cancelled") return void open.get(String(cancelledRequestId(message)))?.abort("the server withdrew the request");
    if (c.frameType === "request" && c.method === "ping") return void transport.send({ jsonrpc: "2.0", id: c.id!, result: {} } as JSONRPCMessage);
    if (c.frameType !== "request" || c.method !== "elicitation/create") return;
    const n = ++callbacks;
    const current = call;
    const plan = scenario.calls.find((p) => p.label === current)!;
    const ids = { id: c.id!, origin: "server" as const, method: c.method };
    recorder.event("client", "callback.entered", { ...ids, detail: { n, call: current } });
    const leave = book.enter(current);
    const controller = new AbortController();
    open.set(String(c.id), controller);
    if (plan.callback?.watchAbort) controller.signal.addEventListener("abort", () => recorder.event("client", "callback.aborted", { ...ids, detail: { n, call: current, reason: String(controller.signal.reason) } }), { once: true });
    void (async () => {
      try {
        const answer = await perform(plan.callback!, { listedTools: listed, signal: controller.signal, nested });
        recorder.event("client", "callback.left", { ...ids, detail: { n, call: current, action: answer.action } });
        if (!controller.signal.aborted) await transport.send({ jsonrpc: "2.0", id: c.id!, result: answer } as JSONRPCMessage);
      } catch (error) {
        recorder.event("client", "callback.left", { ...ids, detail: { n, call: current, error: String(error) } });
      } finally {
        open.delete(String(c.id));
        leave();
      }
    })();
  };
  await transport.start();
  await request("initialize", { protocolVersion: "2025-11-25", capabilities: scenario.capabilities, clientInfo: { name: "toy", version: "0" } }, CALL_TIMEOUT_MS);
  await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" } as JSONRPCMessage);
  if (scenario.listToolsFirst) listed = names(await request("tools/list", {}, CALL_TIMEOUT_MS));
  for (const plan of scenario.calls) {
    call = plan.label;
    recorder.event("client", "call.started", { detail: { call } });
    const signal = book.start(plan.giveUpAfterMs);
    try {
      const result = await request("tools/call", { name: plan.tool ?? "calculate", arguments: plan.args ?? {} }, CALL_TIMEOUT_MS, signal);
      recorder.event("client", "tool.result", { detail: { call, result: result.structuredContent ?? null, isError: result.isError === true } });
    } catch (error) {
      recorder.event("client", "tool.result", { detail: { call, error: errorInfo(error) } });
    } finally {
      book.end();
    }
    // A call that gave up may leave its form open: the next call waits for it (bounded).
    if (plan.awaitCallbacks) await withBound(book.settled(plan.label), CALL_TIMEOUT_MS, `callbacks of call ${plan.label}`);
  }
  await transport.close();
}

export const TOY_CLIENT: ClientPeer = {
  name: "toy",
  sdk: "a toy JSON-RPC client (tests only)",
  loops: ["sdk", "serial"],
  meaning: "a plain JSON-RPC client written for the tests",
  era: "2025-11-25",
  unavailable: () => undefined,
  driver: { kind: "in-process", run: runToy },
};
