// Fault switches of the stdio child, shared by the child (which obeys them) and the tests
// (which look for their traces). Kept apart so importing them never starts a server.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
export const CHILD_FAULTS = ["stdout-garbage", "die-mid-call", "ignore-stdin-close"] as const;
export type ChildFault = (typeof CHILD_FAULTS)[number];

/** The one non-JSON line the stdout-garbage fault writes. */
export const GARBAGE_LINE = "lab fault: this line is not JSON-RPC";
/** Exit code of the die-mid-call fault, and the stderr line it writes first. */
export const DIE_EXIT_CODE = 3;
export const DIE_STDERR_LINE = `child-server: fault die-mid-call: exiting with ${DIE_EXIT_CODE} inside tools/call`;
/** The ignore-stdin-close child still leaves after this long, or as soon as it is orphaned. */
export const FAULT_LIFETIME_MS = 60_000;

/**
 * die-mid-call: the only request the server sends is elicitation/create, from inside the
 * calculate tool handler: dying there leaves the client's tools/call in flight. Stderr to a pipe
 * is synchronous on POSIX, so the line is out before exit.
 */
export function dieOnElicitation(transport: Transport): void {
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    if ("method" in message && message.method === "elicitation/create") {
      process.stderr.write(`${DIE_STDERR_LINE}\n`);
      process.exit(DIE_EXIT_CODE);
    }
    return send(message, options);
  };
}
