// One stdio session of the calculate server: the same transport-free server as in memory, on the
// SDK's StdioServerTransport over three streams, a fresh child's own (child-server.ts) or a hosted
// session's connections (child-host.ts).
import { writeFileSync } from "node:fs";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createCalculateServer } from "./calculate-server.js";
import { ObservedTransport } from "../../transports/observed.js";
import { Recorder } from "../../history/timeline.js";
import { dieOnElicitation, GARBAGE_LINE, type ChildFault } from "./child-faults.js";
import type { HttpFault } from "../../transports/http-faults.js";
import type { probeOnce } from "./probe-once.js";

export function argValue(argv: readonly string[], flag: string): string | undefined {
  const i = argv.indexOf(flag);
  return i === -1 ? undefined : argv[i + 1];
}

/** A session's three streams: the process's own, or a hosted session's connections (child-host.ts). */
export interface SessionIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream & Pick<NodeJS.WriteStream, "cork" | "uncork" | "writableCorked">;
  stderr: NodeJS.WritableStream;
}

export interface Session {
  /** resolves once the client has ended its input and the server has closed: the exit code */
  ended: Promise<number>;
  /** closes the server at once and writes nothing more (a hosted session the lab stopped) */
  abandon(): void;
  /** the client said it can sample (its initialize capabilities) */
  clientSamples(): boolean;
}

/** One stdio session of the calculate server on `io`. Faults, --once and --http are a fresh
 *  process's alone (they end or outlive the process): main() handles them. */
export async function serveSession(argv: readonly string[], io: SessionIo, faults = new Set<ChildFault | HttpFault>(), once?: ReturnType<typeof probeOnce>): Promise<Session> {
  // With --events FILE the child records its own side and writes it to FILE when stdin ends.
  const eventsFile = argValue(argv, "--events");
  const recorder = eventsFile ? new Recorder() : undefined;
  const mcp = createCalculateServer(recorder && ((kind, fields) => recorder.event("server", kind, fields)), once?.listener);
  const stdio = new StdioServerTransport(io.stdin as NodeJS.ReadStream, io.stdout as NodeJS.WriteStream);
  const transport = recorder ? new ObservedTransport("server", stdio, recorder) : stdio;
  // What the server sends in one synchronous run (fan-out's 8 requests, liveness's request and
  // ping) leaves in one write, as in memory it reaches the client's queue at once. Written one
  // by one, a busy machine could preempt the child between two writes and split the burst by
  // more than a callback's time (93 ms was measured at load average 14).
  const sendOne = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    if (io.stdout.writableCorked === 0) {
      io.stdout.cork();
      process.nextTick(() => io.stdout.uncork());
    }
    const sent = sendOne(message);
    return once ? sent.then(() => once.sent(message)) : sent;
  };

  if (faults.has("die-mid-call")) dieOnElicitation(transport);
  if (faults.has("stdout-garbage")) {
    // After the handshake completes, one line on stdout that is not JSON-RPC.
    mcp.server.oninitialized = () => {
      io.stdout.write(`${GARBAGE_LINE}\n`);
    };
  }

  mcp.server.onerror = (error) => {
    recorder?.event("server", "sdk.error", { detail: { message: error.message } });
    io.stderr.write(`child-server: sdk error: ${error.message}\n`);
  };
  await mcp.connect(transport);

  let resolveEnded!: (code: number) => void;
  const ended = new Promise<number>((resolve) => (resolveEnded = resolve));
  let abandoned = false;
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    let code = 0;
    if (eventsFile && recorder && !abandoned) {
      try {
        writeFileSync(eventsFile, JSON.stringify({ events: recorder.events, wire: recorder.wire }));
      } catch (error) {
        io.stderr.write(`child-server: could not write ${eventsFile}: ${String(error)}\n`);
        code = 1;
      }
    }
    once?.end("the client ended the session");
    await mcp.close().catch((error: unknown) => {
      io.stderr.write(`child-server: close failed: ${String(error)}\n`);
      code = 1;
    });
    resolveEnded(code);
  };
  if (!faults.has("ignore-stdin-close")) {
    // StdioServerTransport never listens for EOF (server/stdio.js only subscribes to 'data' and
    // 'error'): without this the child relies on the loop draining by itself. Closing the server
    // clears its pending timers, and the process then exits 0 once nothing is left to run.
    io.stdin.once("end", () => void shutdown());
    io.stdin.once("close", () => void shutdown());
    // A parent that went away makes stdout fail with EPIPE: nothing left to talk to.
    io.stdout.on("error", () => void shutdown());
  }
  return {
    ended,
    abandon: () => ((abandoned = true), void shutdown()),
    clientSamples: () => mcp.server.getClientCapabilities()?.sampling !== undefined,
  };
}
