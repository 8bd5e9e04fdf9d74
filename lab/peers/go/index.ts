// The Go peer: the official Go SDK's client (github.com/modelcontextprotocol/go-sdk, the exact
// version go.mod requires), a driver program (main.go: the session; contract.go: the plan in, the
// events out; callbacks.go: sampling and roots; host.go: one session from its streams, and the
// --host mode that runs many in one process) built into build/ by the set-up. It speaks MCP on its
// stdin/stdout or a hosted session's connections; the lab records the wire on its side.
import { join } from "node:path";
import { BUILD_DIR, LAB_DIR } from "../../paths.js";
import { buildProblem, type CachedBuild } from "../cached-build.js";
import type { ClientPeer } from "../../plan/peer.js";
import { goModule, sdkLabel } from "../installed.js";

const GO_DIR = join(LAB_DIR, "peers", "go");
export const GO_CLIENT_BINARY = join(BUILD_DIR, "go-client");

// The SDK's version as the built binary's module list has it; go.mod pins it (`peers --strict` compares)
const SDK = sdkLabel("go-sdk (Go SDK) {}", goModule("github.com/modelcontextprotocol/go-sdk", { gomod: join(GO_DIR, "go.mod"), binary: GO_CLIENT_BINARY }));

export const GO_BUILD: CachedBuild = {
  name: "go",
  toolchain: ["go", "version"],
  inputs: ["lab/peers/go/main.go", "lab/peers/go/contract.go", "lab/peers/go/callbacks.go", "lab/peers/go/host.go", "lab/peers/go/go.mod", "lab/peers/go/go.sum"],
  outputs: [GO_CLIENT_BINARY],
  // -mod=readonly: exactly go.mod and go.sum, never an update; GOTOOLCHAIN=local: no toolchain download
  steps: [{ command: "go", args: ["build", "-trimpath", "-o", GO_CLIENT_BINARY, "."], cwd: "lab/peers/go", env: { GOFLAGS: "-mod=readonly", GOTOOLCHAIN: "local" } }],
  boundMs: 300_000,
};

export const GO_CLIENT: ClientPeer = {
  name: "go",
  sdk: SDK,
  loops: ["sdk"],
  meaning: "the Go SDK's ClientSession as shipped, pinned to 2025-11-25 (jsonrpc2 releases each inbound call with Async; notifications are handled one at a time)",
  era: "2025-11-25",
  unavailable: () => buildProblem(GO_BUILD),
  driver: {
    kind: "process",
    // --host: one driver process runs many sessions (lab/transports/hosts.md; host.go)
    command: (planFile, eventsFile) => ({
      command: GO_CLIENT_BINARY,
      args: ["--plan", planFile, "--events", eventsFile],
      host: { args: ["--host"], argv: ["--plan", planFile, "--events", eventsFile] },
    }),
  },
};
