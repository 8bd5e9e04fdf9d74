// The session's transport as an @ai-sdk/mcp MCPTransport (lab/peers/ai-sdk/node_modules/@ai-sdk/mcp/dist/index.d.ts:985-1043).
// The shapes match already (start/send/close/on*), but the client's onmessage THROWS on a reply to
// an id it has forgotten (onResponse, dist/index.js:3136): after a give-up (abort forgets the id,
// requestOnce's onAbort :2710-2713) the server's result for that call does exactly that. The SDK's
// own transports catch what onmessage throws and hand it to onerror (SSE :1607-1616, stdio
// dist/mcp-stdio/index.js:409-414); this adds that catch and nothing else, so the throw never depends
// on which transport carries the session: every frame still goes through it as it is.
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

  /** The AI SDK passes a signal and headers here (requestOnce :2741-2745); the lab's transport takes neither. */
  send(message: JSONRPCMessage): Promise<void> {
    return this.inner.send(message as Parameters<Transport["send"]>[0]);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** called by the client after initialize (setTransportProtocolVersion :2544-2547) */
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}
