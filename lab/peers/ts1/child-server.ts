// The calculate server as a real stdio child (its session: child-session.ts), or with --host a
// host of many sessions (child-host.ts). Run from build/ (compiled JS), never transpiled at spawn.
// Fault switches exist only for tests and are off unless passed with --fault.
import v8 from "node:v8";
import { CHILD_FAULTS, FAULT_LIFETIME_MS, type ChildFault } from "./child-faults.js";
import { HTTP_FAULTS, type HttpFault } from "../../transports/http-faults.js";
import { ONCE_LIMIT_MS, probeOnce } from "./probe-once.js";
import { argValue, serveSession, type Session } from "./child-session.js";

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
  // A host of many sessions (lab/transports/hosts.md), each over its own three connections.
  if (argv.includes("--host")) return (await import("./child-host.js")).hostSessions(serveSession);
  const faults = parseFaults(argv);
  // The same program serves Streamable HTTP instead of stdio (one build, one snapshot). Loaded
  // only then: the snapshot builder cannot hold node:http, so it stays out of the snapshot.
  if (argv.includes("--http")) {
    const { serveHttpChild } = await import("./child-http.js");
    return serveHttpChild({ faults, eventsFile: argValue(argv, "--events"), port: Number(argValue(argv, "--port") ?? 0) });
  }
  // serve --once: ends after the probes (lab/peers/ts1/probe-once.ts); exit code = the verdict
  let session: Session | undefined;
  const once = argv.includes("--once") ? probeOnce(argValue(argv, "--report"), onceLimit(argv), exitAfterFlush, () => session?.clientSamples() ?? false) : undefined;
  session = await serveSession(argv, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, faults, once);
  void session.ended.then((code) => code && (process.exitCode = code));

  if (faults.has("ignore-stdin-close")) {
    // Misbehaves on purpose: a timer keeps the event loop alive and stdin EOF is ignored.
    // Still bounded, so a parent that died without killing it cannot leave it behind:
    // it leaves once orphaned (re-parented) or after FAULT_LIFETIME_MS.
    const parent = process.ppid;
    const born = Date.now();
    setInterval(() => {
      if (process.ppid !== parent || Date.now() - born > FAULT_LIFETIME_MS) process.exit(4);
    }, 250);
  }
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
