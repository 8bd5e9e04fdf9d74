// Two in-memory carriers linked to each other: a frame sent on one is handed to the other's
// onmessage at once, in the sender's call stack. Recording and dispatch are the ObservedTransport
// wrapped around each end (lab/transports/observed.ts): the receiving side queues the frame on
// arrival and its pump delivers it later, so the timeline shows both moments.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { OnDeadlock, DispatchModel } from "../history/receive-loop.js";
import type { Recorder } from "../history/timeline.js";
import { ObservedTransport } from "./observed.js";

class MemoryCarrier implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  peer: MemoryCarrier | undefined;
  private open = true;

  constructor(private readonly name: string) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    const peer = this.peer;
    if (!this.open || !peer) throw new Error(`${this.name} transport is closed`);
    peer.onmessage?.(message);
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    const peer = this.peer;
    this.peer = undefined;
    await peer?.close();
    this.onclose?.();
  }
}

export interface LinkedPair {
  client: ObservedTransport;
  server: ObservedTransport;
}

/** The client end runs the given loop model; the server side always dispatches as shipped. */
export function createLinkedPair(recorder: Recorder, clientModel: DispatchModel, onDeadlock: OnDeadlock = "wait"): LinkedPair {
  const clientEnd = new MemoryCarrier("client");
  const serverEnd = new MemoryCarrier("server");
  clientEnd.peer = serverEnd;
  serverEnd.peer = clientEnd;
  return {
    client: new ObservedTransport("client", clientEnd, recorder, { model: clientModel, onDeadlock }),
    server: new ObservedTransport("server", serverEnd, recorder),
  };
}
