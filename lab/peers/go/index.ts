// The Go peer: the official Go SDK's client (github.com/modelcontextprotocol/go-sdk, the exact
// version go.mod requires), a driver program (main.go: the session; steps.go: the calls and a form's
// Behaviour, no SDK in it, shared with mcp-go; contract.go: the plan in, the
// events out; callbacks.go: sampling and roots; host.go: one session from its streams, and the
// --host mode that runs many in one process) built into build/ by the set-up. It speaks MCP on its
// stdin/stdout or a hosted session's connections; the lab records the wire on its side.
import { join } from "node:path";
import { BUILD_DIR, LAB_DIR } from "../../paths.js";
import { buildProblem, type CachedBuild } from "../cached-build.js";
import { hostedBinary } from "../host-driver.js";
import type { ClientPeer } from "../../plan/peer.js";
import { goModule, sdkLabel } from "../installed.js";

const GO_DIR = join(LAB_DIR, "peers", "go");
export const GO_CLIENT_BINARY = join(BUILD_DIR, "go-client");

// The SDK's version as the built binary's module list has it; go.mod pins it (`peers --strict` compares)
const SDK = sdkLabel("go-sdk (Go SDK) {}", goModule("github.com/modelcontextprotocol/go-sdk", { gomod: join(GO_DIR, "go.mod"), binary: GO_CLIENT_BINARY }));

/** A Go driver's build: `go build` in its folder (dir, under the project) into binary; inputs are its
 *  own files and go.mod/go.sum, plus any file it links from another folder. */
export function goDriverBuild(name: string, dir: string, files: readonly string[], binary: string): CachedBuild {
  return {
    name,
    toolchain: ["go", "version"],
    inputs: [...files, `${dir}/go.mod`, `${dir}/go.sum`],
    outputs: [binary],
    // -mod=readonly: exactly go.mod and go.sum, never an update; GOTOOLCHAIN=local: no toolchain download
    steps: [{ command: "go", args: ["build", "-trimpath", "-o", binary, "."], cwd: dir, env: { GOFLAGS: "-mod=readonly", GOTOOLCHAIN: "local" } }],
    boundMs: 300_000,
  };
}

const OWN = ["main.go", "session.go", "session_pre18.go", "steps.go", "contract.go", "callbacks.go", "host.go"].map((f) => `lab/peers/go/${f}`);
export const GO_BUILD: CachedBuild = goDriverBuild("go", "lab/peers/go", OWN, GO_CLIENT_BINARY);

export const GO_CLIENT: ClientPeer = {
  name: "go",
  sdk: SDK,
  loops: ["sdk"],
  meaning: "the Go SDK's ClientSession as shipped, pinned to 2025-11-25 (jsonrpc2 releases each inbound call with Async; notifications are handled one at a time)",
  era: "2025-11-25",
  unavailable: () => buildProblem(GO_BUILD),
  // --host: one driver process runs many sessions (lab/transports/hosts.md; host.go)
  driver: hostedBinary(GO_CLIENT_BINARY),
};
