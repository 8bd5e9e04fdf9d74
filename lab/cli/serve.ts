// `serve`: the lab's calculate server with the probe tools, over this process's stdin/stdout, for
// any MCP client. It runs the very module the stdio child is built from (lab/peers/ts1/
// child-server.ts, bundled to build/child-server.cjs), so `node build/child-server.cjs` is the
// same server without tsx. Stdout carries nothing but JSON-RPC; this note goes to stderr.
import { CHILD_BUNDLE } from "../peers/ts1/child-build.js";

export const SERVE_USAGE = `usage: tsx lab/run.ts serve, no options (the same server, built: node ${CHILD_BUNDLE})`;

export async function main(argv: string[]): Promise<number> {
  if (argv.length > 0) {
    console.error(`error: serve takes no arguments (got ${argv.join(" ")}); ${SERVE_USAGE}`);
    return 2;
  }
  process.stderr.write("mcp-reentrancy-lab: serving calculate and the probe tools (probe_receive_loop, probe_fan_out) on stdin/stdout; close stdin to stop\n");
  // Starts the server on import and keeps the process alive until stdin ends.
  await import("../peers/ts1/child-server.js");
  return 0;
}
