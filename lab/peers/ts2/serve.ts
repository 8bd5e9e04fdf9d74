// Serves the v2 server over ANY transport, both eras. A plain McpServer.connect(transport) serves
// only 2025-11-25 (initialize): it answers server/discover only when its supportedProtocolVersions
// name a 2026-era revision, and nothing then binds the instance to that era. serveStdio is the
// long-lived-channel entry that decides the era from the opening message, and it takes any
// transport (`options.transport`), so the lab's own recording transports work unchanged.
import type { Transport } from "@modelcontextprotocol/server";
import { serveStdio, type StdioServerHandle } from "@modelcontextprotocol/server/stdio";
import { createTs2Server } from "./server.js";

/**
 * `onerror` hears both the wire's errors (serveStdio's option) and each instance's own SDK errors,
 * e.g. a late answer ("Received a response for an unknown message ID"): serveStdio reports only
 * the former (stdio.mjs reportError), so the instance's Protocol.onerror is set here as well.
 */
export function serveTs2(transport: Transport, onerror?: (error: Error) => void): StdioServerHandle {
  const factory = () => {
    const mcp = createTs2Server();
    if (onerror) mcp.server.onerror = onerror;
    return mcp;
  };
  return serveStdio(factory, { transport, ...(onerror && { onerror }) });
}
