// The session's transport as an @ai-sdk/mcp MCPTransport (node_modules/@ai-sdk/mcp/dist/index.d.ts:269-300).
// The shapes match already (start/send/close/on*), but the client's onmessage THROWS on a reply to
// an id it has forgotten (onResponse, dist/index.mjs:2937-2943): after a give-up (abort forgets the
// id, :2524-2527) the server's result for that call does exactly that. The SDK's own transports
// catch what onmessage throws and hand it to onerror (SSE :1647-1655, HTTP :1953-1961, :2102-2110);
// the lab's transport does not (it is the official SDK's shape, whose clients never throw there), so
// the throw would escape into the lab's receive loop and end the process. This adds that catch and
// nothing else: every frame still goes through the session's recording transport as it is.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MCPTransport } from "@ai-sdk/mcp";

export class CaughtTransport implements MCPTransport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  constructor(private readonly inner: Transport) {
    inner.onmessage = (message) => {
      try {
        this.onmessage?.(message as JSONRPCMessage);
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  /** The AI SDK passes only an abort signal here (:2431-2436); the lab's transport takes none. */
  send(message: JSONRPCMessage): Promise<void> {
    return this.inner.send(message as Parameters<Transport["send"]>[0]);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** read by the client after initialize (:2390-2391) */
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}
