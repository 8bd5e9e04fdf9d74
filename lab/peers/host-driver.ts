// A driver binary that runs one session per process (--plan, --events) or many in one (--host,
// lab/transports/hosts.md): the go, mcp-go and rmcp drivers, each a binary with both modes.
import type { ProcessClientDriver } from "../plan/peer.js";

export function hostedBinary(binary: string): ProcessClientDriver {
  return {
    kind: "process",
    command: (planFile, eventsFile) => ({
      command: binary,
      args: ["--plan", planFile, "--events", eventsFile],
      host: { args: ["--host"], argv: ["--plan", planFile, "--events", eventsFile] },
    }),
  };
}
