// Streamable HTTP: the SDK's own client transport (StreamableHTTPClientTransport) as the carrier
// under the lab's one recording transport, against the server peer's HTTP child on 127.0.0.1
// (or, for tests and the bench, the same server in this process behind a real HTTP server).
// The carrier adds two things and changes no frame: a fetch that keeps HTTP evidence
// (lab/transports/http-log.ts), and the protocol's DELETE when the session ends.
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isInitializedNotification, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { Recorder } from "../history/timeline.js";
import { withBound } from "../plan/bounds.js";
import { type OpenTransport } from "../plan/session.js";
import { within } from "./child-process.js";
import { HttpChild } from "./http-child.js";
import { HttpLog } from "./http-log.js";
import { MCP_PATH, HTTP_HOST, serveStreamableHttp } from "./http-server.js";
import { ObservedTransport } from "./observed.js";
import { spawnToInitialized, takeServerRecord } from "./stdio.js";
import { type ServerRecord } from "../plan/evidence.js";
import { childEventsFile } from "../scratch.js";
import { HTTP_FAULTS, type HttpFault } from "./http-faults.js";
import { isListening } from "./listening.js";

/** How long the client waits for its GET stream after `notifications/initialized` (see send). */
export const GET_OPEN_BOUND_MS = 5_000;
/** How long the DELETE that ends a session may take, and then the ends of the streams. */
export const DELETE_BOUND_MS = 2_000;
export const STREAMS_END_BOUND_MS = 2_000;

export const endpointUrl = (port: number) => new URL(`http://${HTTP_HOST}:${port}${MCP_PATH}`);

/** The SDK's Streamable HTTP client transport, with the lab's fetch; records nothing itself. */
export class HttpCarrier implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly log: HttpLog;
  private sdk: StreamableHTTPClientTransport | undefined;
  private open = true;
  private closing: Promise<void> | undefined;
  private serverIsGone = false;

  /** `endpoint` settles with the server's URL once it listens, or rejects saying why not. */
  constructor(private readonly endpoint: () => Promise<URL>, private readonly recorder: Recorder) {
    this.log = new HttpLog(recorder);
  }

  async start(): Promise<void> {
    const url = await this.endpoint();
    this.log.evidence.url = url.href;
    const sdk = new StreamableHTTPClientTransport(url, { fetch: this.log.fetch });
    // The tap has read each frame before the SDK hands it on; it becomes the next wire frame.
    sdk.onmessage = (message) => {
      this.log.attribute(message, this.recorder.wire.length);
      this.onmessage?.(message);
    };
    sdk.onerror = (error) => this.onerror?.(error);
    // No onclose: the SDK's client transport closes only when this carrier closes it.
    this.sdk = sdk;
    await sdk.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (!this.open || !this.sdk) throw new Error("transport is closed");
    await this.sdk.send(message, options);
    // The SDK opens the GET stream after `initialized` without waiting for it, and the server
    // transport drops a request of its own sent while no GET stream is open (no event store):
    // whether the first elicitation arrived would depend on timing. The lab waits, bounded.
    if (isInitializedNotification(message)) await within(this.log.getOpen, GET_OPEN_BOUND_MS);
  }

  setProtocolVersion(version: string): void {
    this.sdk?.setProtocolVersion(version);
  }

  get sessionId(): string | undefined {
    return this.sdk?.sessionId;
  }

  /** The server is gone while the session still ran: the SDK must fail what is pending now. */
  serverGone(exitCode: number | null, signal: string | null): void {
    this.serverIsGone = true;
    if (!this.open) return;
    this.recorder.event("client", "note", { detail: { childExited: { exitCode, signal } } });
    void this.close();
  }

  /** Once; a second caller waits for the first close to finish. */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    this.open = false;
    this.log.markClosing();
    const sdk = this.sdk;
    // A client SHOULD end its session with DELETE (spec, transports: session management);
    // there is no one to tell when the server is gone.
    const live = sdk?.sessionId !== undefined && !this.serverIsGone;
    const deleted = live && (await within(sdk.terminateSession(), DELETE_BOUND_MS).catch(() => false));
    // The server closed its streams as it ended the session: read them to their ends first.
    // Otherwise close() aborts a stream whose end is still on its way, and the SDK reports its
    // own abort through onerror ("SSE stream disconnected: AbortError"), racing the server.
    if (deleted) await within(this.log.streamsEnded(), STREAMS_END_BOUND_MS);
    // Aborts whatever is still open.
    await sdk?.close();
    this.onclose?.();
  }
}

export interface HttpTransportOptions {
  /** fault switches passed to the server (tests only): lab/transports/http-faults.ts, die-mid-call */
  faults?: readonly string[];
  /** a fixed port instead of one the OS chooses (tests: a port that is already taken) */
  port?: number;
  /** the server peer in this process behind a real HTTP server (tests and the bench) */
  inProcess?: boolean;
}

/** An in-process client against its server peer over Streamable HTTP. */
export function httpTransport(options: HttpTransportOptions = {}): OpenTransport {
  return async (recorder, pairing) => {
    if (options.inProcess) return openInProcess(recorder, pairing, options);
    const http = pairing.server.http;
    if (!http) throw new Error(`server peer ${pairing.server.name} has no HTTP child`);
    await http.prepare?.();
    const eventsFile = http.writesEvents ? childEventsFile() : undefined;
    const server = new HttpChild(http.command({ eventsFile, faults: options.faults ?? [], port: options.port ?? 0 }), recorder);
    const carrier = new HttpCarrier(async () => endpointUrl(await server.port), recorder);
    server.onGone = (exitCode, signal) => carrier.serverGone(exitCode, signal);
    await server.child.spawned();
    return {
      client: carrier,
      close: async () => {
        await carrier.close();
        const evidence = await server.child.close();
        const port = server.listeningPort;
        if (port !== undefined) Object.assign(carrier.log.evidence, { port, portReleased: !isListening(port) });
        const spawnToInitializedMs = spawnToInitialized(recorder, server.child);
        const serverRecord: ServerRecord | null | undefined = eventsFile ? takeServerRecord(eventsFile) : undefined;
        const child = { ...evidence, ...(spawnToInitializedMs !== undefined && { spawnToInitializedMs }) };
        return { kind: "http" as const, http: carrier.log.evidence, server: child, ...(serverRecord !== undefined && { serverRecord }) };
      },
    };
  };
}

export const openHttpTransport: OpenTransport = httpTransport();

async function openInProcess(
  recorder: Recorder,
  pairing: Parameters<OpenTransport>[1],
  options: HttpTransportOptions,
) {
  if (!pairing.server.inProcess) throw new Error(`server peer ${pairing.server.name} cannot run in this process`);
  // The server side gets a recorder of its own, as a child would: its frames cross HTTP.
  const serverSide = new Recorder();
  const http = await serveStreamableHttp({ port: options.port ?? 0, faults: (options.faults ?? []).filter((f): f is HttpFault => (HTTP_FAULTS as readonly string[]).includes(f)) });
  const peer = pairing.server.inProcess(serverSide);
  await peer.connect(new ObservedTransport("server", http.transport, serverSide));
  const carrier = new HttpCarrier(async () => endpointUrl(http.port), recorder);
  return {
    client: carrier,
    close: async () => {
      await carrier.close();
      await withBound(Promise.all([peer.close(), http.close()]), DELETE_BOUND_MS * 2, "stopping the in-process HTTP server");
      Object.assign(carrier.log.evidence, { port: http.port, portReleased: !isListening(http.port) });
      return { kind: "http" as const, http: carrier.log.evidence, serverRecord: { events: serverSide.events, wire: serverSide.wire } };
    },
  };
}
