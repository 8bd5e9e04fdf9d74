// A client and a server transport in one process, linked through observable receive loops.
// Unlike the SDK's InMemoryTransport, a frame is queued on arrival and delivered later by the
// receiving side's pump, so the timeline shows when it arrived and when the SDK got it.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ReceiveLoop, type DispatchModel, type OnDeadlock } from "../history/receive-loop.js";
import type { Recorder, Side } from "../history/timeline.js";

class LinkedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  peer: LinkedTransport | undefined;
  private open = true;

  constructor(
    readonly side: Side,
    readonly loop: ReceiveLoop,
    private readonly recorder: Recorder,
  ) {
    loop.deliver = (message) => this.onmessage?.(message);
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    const peer = this.peer;
    if (!this.open || !peer) throw new Error(`${this.side} transport is closed`);
    const { frame, label } = this.recorder.sent(this.side, message);
    this.loop.noteSent(message, label);
    peer.loop.arrive(message, label, frame);
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    this.loop.close();
    const peer = this.peer;
    this.peer = undefined;
    await peer?.close();
    this.onclose?.();
  }
}

export interface LinkedPair {
  client: Transport;
  server: Transport;
}

export function createLinkedPair(
  recorder: Recorder,
  clientModel: DispatchModel,
  onDeadlock: OnDeadlock = "wait",
): LinkedPair {
  const client = new LinkedTransport(
    "client",
    new ReceiveLoop({ side: "client", model: clientModel, recorder, onDeadlock }),
    recorder,
  );
  // The server side always dispatches as the TS SDK does; the models differ on the client.
  const server = new LinkedTransport("server", new ReceiveLoop({ side: "server", model: "sdk", recorder }), recorder);
  client.peer = server;
  server.peer = client;
  return { client, server };
}
