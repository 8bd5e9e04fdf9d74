// The peer `rust-mcp-sdk`: the rust-mcp-sdk crate (crates.io, not rmcp), its client runtime and
// ClientHandler driven by one program (src/main.rs) that reads the plan, writes its events and speaks
// MCP on its own stdin/stdout through the SDK's StdioTransport; the lab records the wire on its side.
// Built by cargo into build/. A fresh process per session: the SDK's stdio transport takes only the
// process's own stdin/stdout (rust-mcp-transport stdio.rs:234-249), so no --host mode.
import { join } from "node:path";
import { BUILD_DIR, LAB_DIR } from "../../paths.js";
import { buildProblem, type CachedBuild } from "../cached-build.js";
import type { ClientPeer } from "../../plan/peer.js";
import { rustCrate, sdkLabel } from "../installed.js";

const TARGET_DIR = join("build", "rust-mcp-sdk-target");
const BINARY = join(BUILD_DIR, "rust-mcp-sdk-target", "release", "rust-mcp-sdk-client");
// the version cargo built (the crate's source paths in the binary); Cargo.toml pins it
const SDK = sdkLabel("rust-mcp-sdk {}", rustCrate("rust-mcp-sdk", { manifest: join(LAB_DIR, "peers", "rust-mcp-sdk", "Cargo.toml"), binary: BINARY }));

export const RUST_MCP_SDK_BUILD: CachedBuild = {
  name: "rust-mcp-sdk",
  toolchain: ["cargo", "--version"],
  // contract.rs: the driver contract both Rust drivers include (src/main.rs include!)
  inputs: ["lab/peers/rust-mcp-sdk/Cargo.toml", "lab/peers/rust-mcp-sdk/Cargo.lock", "lab/peers/rust-mcp-sdk/src", "lab/peers/rmcp/src/contract.rs"],
  outputs: [BINARY],
  // --locked: the committed Cargo.lock decides every crate; the target dir lives under build/
  steps: [{ command: "cargo", args: ["build", "--release", "--locked", "--manifest-path", "lab/peers/rust-mcp-sdk/Cargo.toml", "--target-dir", TARGET_DIR] }],
  // a first build on a small machine compiles tokio, serde and the SDK: minutes
  boundMs: 900_000,
};

export const RUST_MCP_SDK_CLIENT: ClientPeer = {
  name: "rust-mcp-sdk",
  sdk: SDK,
  loops: ["sdk"],
  meaning:
    "the rust-mcp-sdk 1.1.0 client runtime as shipped: its one reading task awaits each inbound request's handler before it reads the next frame, replies included (client_runtime.rs:191-254, :304-345)",
  era: "2025-11-25",
  unavailable: () => buildProblem(RUST_MCP_SDK_BUILD),
  driver: {
    kind: "process",
    command: (planFile, eventsFile) => ({ command: BINARY, args: ["--plan", planFile, "--events", eventsFile] }),
  },
};
