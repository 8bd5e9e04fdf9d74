// The v2 server as a real stdio child: serveStdio over this process's stdin/stdout decides the era
// from the opening message (initialize -> 2025-11-25, server/discover -> 2026-07-28) and pins one
// createTs2Server() instance per connection. Run from build/ (bundled by lab/peers/ts2/build.ts,
// captured in a V8 snapshot), never transpiled at spawn. v2's StdioServerTransport closes on
// stdin EOF, so the child exits 0 once its parent closes stdin and nothing is left to run.
// LAB_TS2_SPAWN_LOG=FILE: the child appends its pid to FILE when it starts (counts spawns, e.g.
// the v2 client's server/discover probe sibling).
import { appendFileSync } from "node:fs";
import v8 from "node:v8";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { preloadSchemas } from "@modelcontextprotocol/server";
import { createTs2Server } from "./server.js";

function start(): void {
  const log = process.env.LAB_TS2_SPAWN_LOG;
  if (log) appendFileSync(log, `${process.pid}\n`);
  serveStdio(() => createTs2Server(), {
    onerror: (error) => process.stderr.write(`ts2-child: ${error.message}\n`),
  });
}

if (v8.startupSnapshot?.isBuildingSnapshot()) {
  // Built into a snapshot, the SDK's lazily built wire schemas are built once, at build time.
  preloadSchemas();
  v8.startupSnapshot.setDeserializeMainFunction(start);
} else {
  start();
}
