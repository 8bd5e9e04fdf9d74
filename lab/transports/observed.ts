// The one recording transport. Whatever carries the frames (an in-memory pipe, a child's stdio,
// HTTP), this wraps it the same way: a frame this side sends is recorded, noted by the receive
// loop, then handed to the carrier; a frame the carrier delivers is recorded (or found on the
// wire, in memory) and joins the loop, whose pump hands it to the SDK under the loop's model.
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { otherSide, type Side } from "../history/frames.js";
import { ReceiveLoop, type LoopModel, type OnDeadlock } from "../history/receive-loop.js";
import type { Recorder } from "../history/timeline.js";

/** What carries frames: the SDK's Transport shape, without any recording. */
export type Carrier = Transport;

export interface ObservedOptions {
  loop?: LoopModel;
  onDeadlock?: OnDeadlock;
}

export class ObservedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly loop: ReceiveLoop;
  private open = true;

  constructor(
    readonly side: Side,
    private readonly inner: Carrier,
    private readonly recorder: Recorder,
    options: ObservedOptions = {},
  ) {
    this.loop = new ReceiveLoop({ side, loop: options.loop ?? "sdk", recorder, ...(options.onDeadlock && { onDeadlock: options.onDeadlock }) });
    this.loop.deliver = (message) => this.onmessage?.(message);
    inner.onmessage = (message) => {
      const { frame, label } = recorder.received(otherSide(side), message);
      this.loop.arrive(message, label, frame);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.closed();
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (!this.open) throw new Error(`${this.side} transport is closed`);
    const { label } = this.recorder.sent(this.side, message);
    this.loop.noteSent(message, label);
    // The options say which HTTP stream a server's frame belongs to (relatedRequestId).
    await this.inner.send(message, options);
  }

  // HTTP carriers need both: the client sends the negotiated version in a header, and the SDK
  // reads the session id (undefined for carriers without sessions).
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async close(): Promise<void> {
    if (!this.open) return;
    await this.inner.close();
    this.closed();
  }

  private closed(): void {
    if (!this.open) return;
    this.open = false;
    this.loop.close();
    this.onclose?.();
  }
}
