// The server's side of a stdio session, seen from inside the child: the SDK's stdio transport
// wrapped so that frames pass through the same receive loop and recorder as in memory. The
// child writes what it recorded to a file the parent names, so parity covers both sides.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ReceiveLoop } from "../history/receive-loop.js";
import type { Recorder } from "../history/timeline.js";

export class ObservedServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly loop: ReceiveLoop;

  constructor(
    private readonly inner: Transport,
    private readonly recorder: Recorder,
  ) {
    // The server always dispatches as the TS SDK does, as in memory.
    this.loop = new ReceiveLoop({ side: "server", model: "sdk", recorder });
    this.loop.deliver = (message) => this.onmessage?.(message);
    inner.onmessage = (message) => {
      const { frame, label } = recorder.received("client", message);
      this.loop.arrive(message, label, frame);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      this.loop.close();
      this.onclose?.();
    };
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const { label } = this.recorder.sent("server", message);
    this.loop.noteSent(message, label);
    await this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
