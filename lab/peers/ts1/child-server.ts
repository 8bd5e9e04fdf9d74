// The calculate server as a real stdio child: the same transport-free server as in memory,
// connected to the SDK's StdioServerTransport. Run from build/ (compiled JS), never transpiled
// at spawn. Fault switches exist only for tests and are off unless passed with --fault.
import { writeFileSync } from "node:fs";
import v8 from "node:v8";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createCalculateServer } from "./calculate-server.js";
import { ObservedTransport } from "../../transports/observed.js";
import { Recorder } from "../../history/timeline.js";
import { CHILD_FAULTS, DIE_EXIT_CODE, DIE_STDERR_LINE, FAULT_LIFETIME_MS, GARBAGE_LINE, type ChildFault } from "./child-faults.js";

function argValue(argv: readonly string[], flag: string): string | undefined {
  const i = argv.indexOf(flag);
  return i === -1 ? undefined : argv[i + 1];
}

function parseFaults(argv: readonly string[]): Set<ChildFault> {
  const faults = new Set<ChildFault>();
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] !== "--fault") continue;
    const name = argv[++i];
    if (!CHILD_FAULTS.includes(name as ChildFault)) {
      process.stderr.write(`child-server: unknown fault '${String(name)}' (known: ${CHILD_FAULTS.join(", ")})\n`);
      process.exit(2);
    }
    faults.add(name as ChildFault);
  }
  return faults;
}

async function main(): Promise<void> {
  const faults = parseFaults(process.argv.slice(2));
  // With --events FILE the child records its own side and writes it to FILE when stdin ends.
  const eventsFile = argValue(process.argv.slice(2), "--events");
  const recorder = eventsFile ? new Recorder() : undefined;
  const mcp = createCalculateServer(recorder && ((kind, fields) => recorder.event("server", kind, fields)));
  const stdio = new StdioServerTransport();
  const transport = recorder ? new ObservedTransport("server", stdio, recorder) : stdio;

  if (faults.has("die-mid-call")) {
    // The only request the server sends is elicitation/create, from inside the calculate tool
    // handler: dying there leaves the client's tools/call in flight. Stderr to a pipe is
    // synchronous on POSIX, so the line is out before exit.
    const send = transport.send.bind(transport);
    transport.send = async (message: JSONRPCMessage) => {
      if ("method" in message && message.method === "elicitation/create") {
        process.stderr.write(`${DIE_STDERR_LINE}\n`);
        process.exit(DIE_EXIT_CODE);
      }
      return send(message);
    };
  }
  if (faults.has("stdout-garbage")) {
    // After the handshake completes, one line on stdout that is not JSON-RPC.
    mcp.server.oninitialized = () => {
      process.stdout.write(`${GARBAGE_LINE}\n`);
    };
  }

  mcp.server.onerror = (error) => {
    recorder?.event("server", "sdk.error", { detail: { message: error.message } });
    process.stderr.write(`child-server: sdk error: ${error.message}\n`);
  };
  await mcp.connect(transport);

  if (faults.has("ignore-stdin-close")) {
    // Misbehaves on purpose: a timer keeps the event loop alive and stdin EOF is ignored.
    // Still bounded, so a parent that died without killing it cannot leave it behind:
    // it leaves once orphaned (re-parented) or after FAULT_LIFETIME_MS.
    const parent = process.ppid;
    const born = Date.now();
    setInterval(() => {
      if (process.ppid !== parent || Date.now() - born > FAULT_LIFETIME_MS) process.exit(4);
    }, 250);
    return;
  }
  // StdioServerTransport never listens for EOF (server/stdio.js only subscribes to 'data' and
  // 'error'): without this the child relies on the loop draining by itself. Closing the server
  // clears its pending timers, and the process then exits 0 once nothing is left to run.
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    if (eventsFile && recorder) {
      try {
        writeFileSync(eventsFile, JSON.stringify({ events: recorder.events, wire: recorder.wire }));
      } catch (error) {
        process.stderr.write(`child-server: could not write ${eventsFile}: ${String(error)}\n`);
        process.exitCode = 1;
      }
    }
    mcp.close().catch((error: unknown) => {
      process.stderr.write(`child-server: close failed: ${String(error)}\n`);
      process.exitCode = 1;
    });
  };
  process.stdin.once("end", shutdown);
  process.stdin.once("close", shutdown);
  // A parent that went away makes stdout fail with EPIPE: nothing left to talk to.
  process.stdout.on("error", shutdown);
}

function start(): void {
  main().catch((error: unknown) => {
    process.stderr.write(`child-server: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

// Built into a V8 startup snapshot (lab/child-build.ts), the modules above are initialised at
// build time and only start() runs when a child is spawned from the snapshot.
if (v8.startupSnapshot?.isBuildingSnapshot()) v8.startupSnapshot.setDeserializeMainFunction(start);
else start();
