// `serve`: the lab's calculate server with the probe tools, for any MCP client: over this process's
// stdin/stdout, or Streamable HTTP on 127.0.0.1 (--http; a foreign Host or Origin gets 403). With
// --once it is one step of a client's own test suite: it ends after the probes and exits 0 for a
// concurrent receive loop, 1 for a serial one, 2 inconclusive or not run, the verdicts in --report
// FILE (lab/peers/ts1/probe-once.ts). It runs the module the stdio child is built from
// (lab/peers/ts1/child-server.ts, bundled to build/child-server.cjs): `node build/child-server.cjs`
// takes the same flags without tsx. Stdout carries nothing but JSON-RPC; notes go to stderr.
import { UsageError, type Parsed } from "./args.js";

export async function main(args: Parsed): Promise<number> {
  const has = (name: string) => args.given.has(name);
  if (has("port") && !has("http")) throw new UsageError("serve: --port goes with --http");
  if ((has("report") || has("limit-ms")) && !has("once")) throw new UsageError("serve: --report and --limit-ms go with --once");
  if (has("once") && has("http")) throw new UsageError("serve: --once serves stdio only (one client's session is the run)");
  const what = has("http") ? "Streamable HTTP on 127.0.0.1 (the port on stdout)" : "stdin/stdout; close stdin to stop";
  process.stderr.write(`mcp-reentrancy-lab: serving calculate and the probe tools (probe_receive_loop, probe_sampling, probe_fan_out) on ${what}${has("once") ? "; --once: ends after the probes" : ""}\n`);
  // The server reads its flags from process.argv (as `node build/child-server.cjs` does): hand it
  // the parse, each flag spelled `--flag value`.
  const flags = [...args.given].flatMap((name) => (args.values.get(name) === true ? [`--${name}`] : [`--${name}`, String(args.values.get(name))]));
  process.argv = [...process.argv.slice(0, 3), ...flags];
  // Starts the server on import (it reads the same flags from process.argv) and keeps the process
  // alive until stdin ends, SIGINT, or --once's end.
  await import("../peers/ts1/child-server.js");
  return 0;
}
