// Two in-memory carriers linked to each other: a frame sent on one is handed to the other's
// onmessage at once, in the sender's call stack. Recording and dispatch are the ObservedTransport
// wrapped around each end (lab/transports/observed.ts): the receiving side queues the frame on
// arrival and its pump delivers it later, so the timeline shows both moments.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { OnDeadlock, LoopModel } from "../history/receive-loop.js";
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

/** Linked ends: the server's recorded (dispatching as shipped), the client's a bare carrier. */
export function linkedEnds(recorder: Recorder): { client: MemoryCarrier; server: ObservedTransport } {
  const clientEnd = new MemoryCarrier("client");
  const serverEnd = new MemoryCarrier("server");
  clientEnd.peer = serverEnd;
  serverEnd.peer = clientEnd;
  return { client: clientEnd, server: new ObservedTransport("server", serverEnd, recorder) };
}

/** Both ends recorded: the client end runs the given loop model (demos, bench). */
export function createLinkedPair(recorder: Recorder, clientLoop: LoopModel, onDeadlock: OnDeadlock = "wait"): LinkedPair {
  const ends = linkedEnds(recorder);
  return { client: new ObservedTransport("client", ends.client, recorder, { loop: clientLoop, onDeadlock }), server: ends.server };
}
