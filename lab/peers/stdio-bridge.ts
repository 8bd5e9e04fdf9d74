// For a framework whose public API only spawns a server (a `command`, e.g. @mastra/mcp's
// StdioServerDefinition, langchain's stdio connection, @openai/agents-core's MCPServerStdio): the
// command it is given is a small real node child that joins its own stdin/stdout to a unix socket
// this process listens on, and this side carries each line to and from the session's recording
// Transport. The framework's own stdio transport does the framing; the lab still records every
// frame on its transport to the server, as for any in-process client.
import { createServer, type Server, type Socket } from "node:net";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { withBound } from "../plan/bounds.js";

/** The child: stdin to the socket, the socket to stdout; it ends when either side ends. */
const CHILD_SCRIPT =
  'const s=require("node:net").connect(process.argv[1]);process.stdin.pipe(s);s.pipe(process.stdout);' +
  's.on("close",()=>process.exit(0));s.on("error",()=>process.exit(1));process.stdin.on("end",()=>s.end());';
/** Bound on closing the session's transport once the framework has closed its child. */
const CLOSE_BOUND_MS = 10_000;

let count = 0;

export interface StdioBridge {
  /** what the framework is told to spawn */
  command: string;
  args: string[];
  /** lines the framework wrote that were not JSON (kept, never dropped) */
  unparsed: string[];
  close(): Promise<void>;
}

export async function openStdioBridge(transport: Transport): Promise<StdioBridge> {
  const path = join(tmpdir(), `lab-bridge-${process.pid}-${++count}.sock`);
  rmSync(path, { force: true });
  const unparsed: string[] = [];
  let socket: Socket | undefined;
  const server: Server = createServer((s) => {
    // One framework child at a time: a later one replaces the earlier. @modelcontextprotocol/client
    // 2.x negotiating 'auto' over stdio spawns the command twice, one after the other: a sibling for
    // its server/discover probe, reaped before the session's own child starts (negotiateStdioViaSibling,
    // @modelcontextprotocol/client 2.4.0 dist/public-CvV4ZHkX.mjs:2520-2560). Both children's frames
    // go to the one server session the lab records.
    socket?.destroy();
    socket = s;
    let buffer = "";
    s.setEncoding("utf8");
    s.on("data", (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, end).trim();
        buffer = buffer.slice(end + 1);
        if (!line) continue;
        let message: JSONRPCMessage;
        try {
          message = JSON.parse(line) as JSONRPCMessage;
        } catch {
          unparsed.push(line);
          continue;
        }
        void transport.send(message).catch((error: unknown) => unparsed.push(`send failed: ${String(error)}`));
      }
    });
    s.on("error", () => undefined);
  });
  transport.onmessage = (message) => {
    socket?.write(`${JSON.stringify(message)}\n`);
  };
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, resolve);
  });
  await transport.start();
  return {
    command: process.execPath,
    args: ["-e", CHILD_SCRIPT, path],
    unparsed,
    close: async () => {
      socket?.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(path, { force: true });
      await withBound(transport.close(), CLOSE_BOUND_MS, "the session transport's close()");
    },
  };
}
