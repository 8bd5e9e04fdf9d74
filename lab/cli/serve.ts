// `serve`: the lab's calculate server with the probe tools, for any MCP client: over this process's
// stdin/stdout, or Streamable HTTP on 127.0.0.1 (--http; a foreign Host or Origin gets 403). With
// --once it is one step of a client's own test suite: it ends after the probes and exits 0 for a
// concurrent receive loop, 1 for a serial one, 2 inconclusive or not run, the verdicts in --report
// FILE (lab/peers/ts1/probe-once.ts). It runs the module the stdio child is built from
// (lab/peers/ts1/child-server.ts, bundled to build/child-server.cjs): `node build/child-server.cjs`
// takes the same flags without tsx. Stdout carries nothing but JSON-RPC; notes go to stderr.
import { UsageError } from "./args.js";
import { CHILD_BUNDLE } from "../peers/ts1/child-build.js";

export const SERVE_USAGE = `usage: tsx lab/run.ts serve [--http [--port N]] [--once [--report FILE] [--limit-ms N]]   (the same server, built: node ${CHILD_BUNDLE} with the same flags)`;

const VALUED = ["--port", "--report", "--limit-ms"];
const SWITCHES = ["--http", "--once"];

export async function main(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) return console.log(SERVE_USAGE), 0;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (SWITCHES.includes(flag)) continue;
    if (!VALUED.includes(flag)) throw new UsageError(`serve: unknown option ${flag}`);
    const value = argv[++i];
    if (value === undefined || value.startsWith("--")) throw new UsageError(`serve: ${flag} needs a value`);
  }
  if (argv.includes("--port") && !argv.includes("--http")) throw new UsageError("serve: --port goes with --http");
  if ((argv.includes("--report") || argv.includes("--limit-ms")) && !argv.includes("--once")) throw new UsageError("serve: --report and --limit-ms go with --once");
  if (argv.includes("--once") && argv.includes("--http")) throw new UsageError("serve: --once serves stdio only (one client's session is the run)");
  const what = argv.includes("--http") ? "Streamable HTTP on 127.0.0.1 (the port on stdout)" : "stdin/stdout; close stdin to stop";
  process.stderr.write(`mcp-reentrancy-lab: serving calculate and the probe tools (probe_receive_loop, probe_sampling, probe_fan_out) on ${what}${argv.includes("--once") ? "; --once: ends after the probes" : ""}\n`);
  // Starts the server on import (it reads the same flags from process.argv) and keeps the process
  // alive until stdin ends, SIGINT, or --once's end.
  await import("../peers/ts1/child-server.js");
  return 0;
}
