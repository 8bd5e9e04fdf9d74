// The calculate server as a real HTTP child: the same server module as in memory and over stdio,
// behind the SDK's Streamable HTTP server transport on 127.0.0.1 (lab/transports/http-server.ts).
// Handshake: once listening, the child writes ONE stdout line, {"port":N}, and nothing else ever
// after. It records its own side like the stdio child (--events FILE) and exits when its stdin
// ends: it closes the session, the server and every open connection, and the port is released.
import { writeFileSync } from "node:fs";
import { Recorder } from "../../history/timeline.js";
import { ObservedTransport } from "../../transports/observed.js";
import type { HttpFault } from "../../transports/http-faults.js";
import { serveStreamableHttp, type HttpMcpServer } from "../../transports/http-server.js";
import { createCalculateServer } from "./calculate-server.js";
import { dieOnElicitation, type ChildFault } from "./child-faults.js";

/** Exit code when the server cannot listen (the port is taken, say); stderr says why. */
export const LISTEN_FAILED_EXIT_CODE = 5;

export interface HttpChildOptions {
  faults: ReadonlySet<ChildFault | HttpFault>;
  eventsFile: string | undefined;
  /** 0: chosen by the OS */
  port: number;
}

export async function serveHttpChild({ faults, eventsFile, port }: HttpChildOptions): Promise<void> {
  const httpFaults = [...faults].filter((f): f is HttpFault => f !== "die-mid-call" && f !== "stdout-garbage" && f !== "ignore-stdin-close");
  let http: HttpMcpServer;
  try {
    http = await serveStreamableHttp({ port, faults: httpFaults });
  } catch (error) {
    process.stderr.write(`child-server: cannot listen on 127.0.0.1:${port}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(LISTEN_FAILED_EXIT_CODE);
  }
  const recorder = eventsFile ? new Recorder() : undefined;
  const transport = recorder ? new ObservedTransport("server", http.transport, recorder) : http.transport;
  if (faults.has("die-mid-call")) dieOnElicitation(transport);
  const mcp = createCalculateServer(recorder && ((kind, fields) => recorder.event("server", kind, fields)));
  mcp.server.onerror = (error) => {
    recorder?.event("server", "sdk.error", { detail: { message: error.message } });
    process.stderr.write(`child-server: sdk error: ${error.message}\n`);
  };
  await mcp.connect(transport);
  process.stdout.write(`${JSON.stringify({ port: http.port })}\n`);

  let closing: Promise<unknown> | undefined;
  const shutdown = (): Promise<unknown> => (closing ??= close());
  const close = () => {
    if (eventsFile && recorder) {
      try {
        writeFileSync(eventsFile, JSON.stringify({ events: recorder.events, wire: recorder.wire }));
      } catch (error) {
        process.stderr.write(`child-server: could not write ${eventsFile}: ${String(error)}\n`);
        process.exitCode = 1;
      }
    }
    // Closing the server clears its timers; closing HTTP ends every connection: nothing is left
    // to run, and the process exits 0 by itself.
    return Promise.all([mcp.close(), http.close()]).catch((error: unknown) => {
      process.stderr.write(`child-server: close failed: ${String(error)}\n`);
      process.exitCode = 1;
    });
  };
  process.stdin.once("end", () => void shutdown());
  process.stdin.once("close", () => void shutdown());
  // serve --http from a terminal: Ctrl-C closes the session, the server and its port, then exits
  // (stdin, still open, would keep the process alive)
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void shutdown().then(() => process.exit()));
  process.stdin.resume();
  process.stdout.on("error", () => void shutdown());
}
