// The peer `mcp-go`: github.com/mark3labs/mcp-go (the exact version go.mod requires; not the official
// go-sdk, which is the `go` peer), its Client with WithElicitationHandler, WithSamplingHandler and
// WithRootsHandler over the SDK's own stdio transport on the streams it is given (transport.NewIO).
// main.go and callbacks.go are the session; contract.go, steps.go and host.go are links to the go
// driver's files (no SDK in them), so the plan, the events, the calls and --host are the go driver's.
import { join } from "node:path";
import { BUILD_DIR, LAB_DIR } from "../../paths.js";
import { buildProblem, type CachedBuild } from "../cached-build.js";
import { goDriverBuild } from "../go/index.js";
import { hostedBinary } from "../host-driver.js";
import type { ClientPeer } from "../../plan/peer.js";
import { goModule, sdkLabel } from "../installed.js";

const DIR = join(LAB_DIR, "peers", "mcp-go");
// beside build/session-plan.schema.json, which contract.go reads next to its binary
const BINARY = join(BUILD_DIR, "mcp-go-client");

// The SDK's version as the built binary's module list has it; go.mod pins it (`peers --strict` compares)
const SDK = sdkLabel("mcp-go (mark3labs) {}", goModule("github.com/mark3labs/mcp-go", { gomod: join(DIR, "go.mod"), binary: BINARY }));

// the linked files' targets are inputs too: a change to the go driver's shared files rebuilds this one
// main.go, callbacks.go and each per-release-range shim pair (the file the newest release builds, untagged, and the
// _pre one lab/peers/mcp-go/history.ts selects by build tag for older releases)
const SHIMS = ["era", "era_pre1", "closed", "closed_pre044", "roots", "roots_pre043", "sentinels", "sentinels_pre041", "elicit", "elicit_pre040", "stdio", "stdio_pre040", "result", "result_pre037"];
const FILES = [...["main", "callbacks", ...SHIMS].map((f) => `lab/peers/mcp-go/${f}.go`), ...["steps.go", "contract.go", "host.go"].map((f) => `lab/peers/go/${f}`)];
export const MCP_GO_BUILD: CachedBuild = goDriverBuild("mcp-go", "lab/peers/mcp-go", FILES, BINARY);

export const MCP_GO_CLIENT: ClientPeer = {
  name: "mcp-go",
  sdk: SDK,
  loops: ["sdk"],
  meaning:
    "mark3labs/mcp-go's Client as shipped, pinned to 2025-11-25: its stdio transport runs each inbound request's handler on its own goroutine with the transport's Start context (client/transport/stdio.go:759-785); notifications are handled in the reading loop",
  era: "2025-11-25",
  unavailable: () => buildProblem(MCP_GO_BUILD),
  // --host: one driver process runs many sessions (lab/transports/hosts.md; host.go)
  driver: hostedBinary(BINARY),
};
