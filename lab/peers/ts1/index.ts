// The ts1 peers: @modelcontextprotocol/sdk 1.32.2's Client and the lab's calculate McpServer,
// in this process or as a stdio child started from a V8 snapshot.
// The client's module loads on first use (`peers` and `list` do not pay for it); the server's in
// load(), before a session begins: connect() must attach the SDK to the transport at once, since a
// relayed driver may already be writing (a frame that arrived before the SDK attached would be lost).
import type { ClientPeer, ServerPeer } from "../../plan/peer.js";
import type { createCalculateServer as Create } from "./calculate-server.js";
import { PROJECT_ROOT } from "../../paths.js";
import { npmPackage, sdkLabel } from "../installed.js";
import { CHILD_ARGS, ensureChildBuilt } from "./child-build.js";

let createCalculateServer: typeof Create | undefined;

const SDK = sdkLabel("@modelcontextprotocol/sdk {}", npmPackage("@modelcontextprotocol/sdk", { dir: PROJECT_ROOT }));

export const TS1_CLIENT: ClientPeer = {
  name: "ts1",
  sdk: SDK,
  loops: ["sdk", "serial"],
  meaning: "the TypeScript SDK 1.32.2 Client; under `serial`, behind the lab's model of the Python SDK 1.29.0 client loop",
  era: "2025-11-25",
  unavailable: () => undefined,
  driver: { kind: "in-process", run: async (scenario, transport, recorder) => (await import("./client.js")).runTs1Client(scenario, transport, recorder) },
};

export const TS1_SERVER: ServerPeer = {
  name: "ts1",
  sdk: SDK,
  meaning: "the lab's calculate server on the TypeScript SDK 1.32.2 McpServer",
  unavailable: () => undefined,
  load: async () => void (createCalculateServer ??= (await import("./calculate-server.js")).createCalculateServer),
  inProcess: (recorder) => {
    if (!createCalculateServer) throw new Error("the ts1 server was used before its load()");
    const mcp = createCalculateServer((kind, fields) => recorder.event("server", kind, fields));
    mcp.server.onerror = (error) => recorder.event("server", "sdk.error", { detail: { message: error.message } });
    return { connect: (transport) => mcp.connect(transport), close: () => mcp.close() };
  },
  child: {
    prepare: ensureChildBuilt,
    writesEvents: true,
    command: ({ eventsFile, faults }) => ({
      command: process.execPath,
      args: [...CHILD_ARGS, ...faults.flatMap((f) => ["--fault", f]), ...(eventsFile ? ["--events", eventsFile] : [])],
      // a plain session runs in the child's host (child-host.ts); a fault is a fresh process's
      ...(faults.length === 0 && { host: { args: [...CHILD_ARGS, "--host"], argv: eventsFile ? ["--events", eventsFile] : [] } }),
    }),
  },
  // The same child program and snapshot, serving Streamable HTTP (lab/peers/ts1/child-http.ts).
  http: {
    prepare: ensureChildBuilt,
    writesEvents: true,
    command: ({ eventsFile, faults, port }) => ({
      command: process.execPath,
      args: [...CHILD_ARGS, "--http", "--port", String(port), ...faults.flatMap((f) => ["--fault", f]), ...(eventsFile ? ["--events", eventsFile] : [])],
    }),
  },
};
