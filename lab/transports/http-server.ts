// A real HTTP server on 127.0.0.1 with the SDK's Streamable HTTP server transport behind it: one
// session (the protocol's Mcp-Session-Id), one MCP server. The lab's HTTP child runs it
// (lab/peers/ts1/child-http.ts); tests and the bench may run it in this process. Fault switches
// act at the HTTP layer only, so what the SDK does stays the SDK's; they are off unless named.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { appendFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { HTTP_500_BODY, SSE_GARBAGE_DATA, type HttpFault } from "./http-faults.js";

export const HTTP_HOST = "127.0.0.1";
export const MCP_PATH = "/mcp";

export interface HttpMcpServer {
  port: number;
  /** the SDK transport of the one session (connect a server to it before the first request) */
  transport: StreamableHTTPServerTransport;
  /** Closes the session, then the server and every open connection; resolves once closed. */
  close(): Promise<void>;
}

export interface ServeOptions {
  /** 0 (default): a port chosen by the OS */
  port?: number;
  faults?: readonly HttpFault[];
  /** Holds a POST carrying tools/call until the client's GET stream is open (at most this many ms). The
   *  server transport drops a request of its own sent while no GET stream is open (no event store), and a
   *  client SDK in another process opens it without waiting: whether a form arrived would depend on timing.
   *  The lab's own HTTP client waits for it instead (lab/transports/http.ts send); this is the server's twin. */
  callsWaitForGetMs?: number;
}

export async function serveStreamableHttp(options: ServeOptions = {}): Promise<HttpMcpServer> {
  const faults = new Set(options.faults ?? []);
  // Made once the port is known: the SDK's DNS-rebinding protection (off unless enabled,
  // server/webStandardStreamableHttp.js:80, :143-161) answers 403 to a Host or Origin that is not
  // this server's own loopback address, as the spec asks of Streamable HTTP servers.
  let transport!: StreamableHTTPServerTransport;
  const server = createServer((req, res) => void handle(req, res));
  let getOpened!: () => void;
  const getOpen = new Promise<void>((resolve) => (getOpened = resolve));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? "/", `http://${HTTP_HOST}`).pathname !== MCP_PATH) {
      res.writeHead(404, { "content-type": "text/plain" }).end(`no MCP endpoint here; it is ${MCP_PATH}\n`);
      return;
    }
    let parsedBody: unknown;
    if (req.method === "GET") onOk(res, getOpened);
    if (req.method === "POST" && (faults.has("http-500") || faults.has("session-lost") || options.callsWaitForGetMs !== undefined)) {
      // The fault (or the hold) needs to see the body; the SDK then takes it parsed, as it allows.
      parsedBody = await readJson(req);
      if (parsedBody === undefined) {
        res.writeHead(400, { "content-type": "text/plain" }).end("lab http server: the body is not JSON");
        return;
      }
      const bound = options.callsWaitForGetMs;
      if (bound !== undefined && carriesToolCall(parsedBody)) await Promise.race([getOpen, new Promise((resolve) => setTimeout(resolve, bound).unref())]);
      if (carriesToolCall(parsedBody) && (faults.has("http-500") || faults.has("session-lost"))) {
        if (faults.has("http-500")) {
          res.writeHead(500, { "content-type": "text/plain" }).end(HTTP_500_BODY);
          return;
        }
        await transport.close();
      }
    }
    if (req.method === "GET" && faults.has("sse-garbage")) garbageFirst(res);
    try {
      await transport.handleRequest(req, res, parsedBody);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`lab http server: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, HTTP_HOST, () => (server.off("error", reject), resolve()));
  });
  const port = (server.address() as AddressInfo).port;
  transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableDnsRebindingProtection: true,
    allowedHosts: [`${HTTP_HOST}:${port}`, `localhost:${port}`],
    allowedOrigins: [`http://${HTTP_HOST}:${port}`, `http://localhost:${port}`],
  });
  // Tests set this, so the suite can check that no server the lab started still listens.
  if (process.env.LAB_LISTEN_LOG) appendFileSync(process.env.LAB_LISTEN_LOG, `${process.pid} ${port}\n`);
  let closing: Promise<void> | undefined;
  return {
    port,
    transport,
    close: () =>
      (closing ??= (async () => {
        await transport.close();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Open SSE responses would keep close() waiting: end them, by this server's own handle.
        server.closeAllConnections();
        await closed;
      })()),
  };
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch {
        resolve(undefined);
      }
    });
  });
}

function carriesToolCall(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => (m as { method?: unknown } | null)?.method === "tools/call");
}

/** Calls `then` as soon as the response's 200 headers are out (a GET stream: once open). */
function onOk(res: ServerResponse, then: () => void): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    const out = writeHead(...args);
    if (res.statusCode === 200) then();
    return out;
  }) as ServerResponse["writeHead"];
}

/** Writes one malformed event as soon as the GET stream's headers are out. */
const garbageFirst = (res: ServerResponse) => onOk(res, () => res.write(`event: message\ndata: ${SSE_GARBAGE_DATA}\n\n`));
