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
import { CHILD_FAULTS, dieOnElicitation, FAULT_LIFETIME_MS, GARBAGE_LINE, type ChildFault } from "./child-faults.js";
import { HTTP_FAULTS, type HttpFault } from "../../transports/http-faults.js";
import { ONCE_LIMIT_MS, probeOnce } from "./probe-once.js";

function argValue(argv: readonly string[], flag: string): string | undefined {
  const i = argv.indexOf(flag);
  return i === -1 ? undefined : argv[i + 1];
}

/** Exit once stdout has handed the last probe's result to the pipe: the send path corks stdout
 *  until the next tick, so exiting at once dropped that result and left the client waiting for it
 *  (a serial client until its own request limit). Bounded: an unwritable stdout still exits. */
function exitAfterFlush(code: number): void {
  while (process.stdout.writableCorked > 0) process.stdout.uncork();
  setTimeout(() => process.exit(code), 2_000).unref();
  process.stdout.write("", () => process.exit(code));
}

function onceLimit(argv: readonly string[]): number {
  const text = argValue(argv, "--limit-ms");
  const n = text === undefined ? ONCE_LIMIT_MS.default : Number(text);
  if (!Number.isInteger(n) || n < ONCE_LIMIT_MS.min || n > ONCE_LIMIT_MS.max) {
    process.stderr.write(`serve: --limit-ms takes ${ONCE_LIMIT_MS.min}..${ONCE_LIMIT_MS.max} (got ${String(text)})\n`);
    process.exit(2);
  }
  return n;
}

const KNOWN_FAULTS: readonly string[] = [...CHILD_FAULTS, ...HTTP_FAULTS];

function parseFaults(argv: readonly string[]): Set<ChildFault | HttpFault> {
  const faults = new Set<ChildFault | HttpFault>();
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] !== "--fault") continue;
    const name = argv[++i];
    if (!KNOWN_FAULTS.includes(String(name))) {
      process.stderr.write(`child-server: unknown fault '${String(name)}' (known: ${KNOWN_FAULTS.join(", ")})\n`);
      process.exit(2);
    }
    faults.add(name as ChildFault | HttpFault);
  }
  return faults;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const faults = parseFaults(argv);
  // With --events FILE the child records its own side and writes it to FILE when stdin ends.
  const eventsFile = argValue(argv, "--events");
  // The same program serves Streamable HTTP instead of stdio (one build, one snapshot). Loaded
  // only then: the snapshot builder cannot hold node:http, so it stays out of the snapshot.
  if (argv.includes("--http")) {
    const { serveHttpChild } = await import("./child-http.js");
    return serveHttpChild({ faults, eventsFile, port: Number(argValue(argv, "--port") ?? 0) });
  }
  const recorder = eventsFile ? new Recorder() : undefined;
  // serve --once: ends after the probes (lab/peers/ts1/probe-once.ts); exit code = the verdict
  const once = argv.includes("--once") ? probeOnce(argValue(argv, "--report"), onceLimit(argv), exitAfterFlush, () => mcp.server.getClientCapabilities()?.sampling !== undefined) : undefined;
  const mcp = createCalculateServer(recorder && ((kind, fields) => recorder.event("server", kind, fields)), once?.listener);
  const stdio = new StdioServerTransport();
  const transport = recorder ? new ObservedTransport("server", stdio, recorder) : stdio;
  // What the server sends in one synchronous run (fan-out's 8 requests, liveness's request and
  // ping) leaves in one write, as in memory it reaches the client's queue at once. Written one
  // by one, a busy machine could preempt the child between two writes and split the burst by
  // more than a callback's time (93 ms was measured at load average 14).
  const sendOne = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    if (process.stdout.writableCorked === 0) {
      process.stdout.cork();
      process.nextTick(() => process.stdout.uncork());
    }
    const sent = sendOne(message);
    return once ? sent.then(() => once.sent(message)) : sent;
  };

  if (faults.has("die-mid-call")) dieOnElicitation(transport);
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
    once?.end("the client ended the session");
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

// Built into a V8 startup snapshot (lab/peers/ts1/child-build.ts), the modules above are initialised at
// build time and only start() runs when a child is spawned from the snapshot.
if (v8.startupSnapshot?.isBuildingSnapshot()) v8.startupSnapshot.setDeserializeMainFunction(start);
else start();
