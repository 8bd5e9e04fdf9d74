// The Rust peer: the official Rust MCP SDK `rmcp` 3.11.0 (crates.io), its client driven by one
// program (src/main.rs) that reads the plan, writes its events and speaks MCP on its own
// stdin/stdout, or, as `--host` (src/host.rs), runs many sessions over their own connections; the
// lab records the wire on its side. Built by cargo into build/.
import { join } from "node:path";
import { BUILD_DIR, LAB_DIR } from "../../paths.js";
import { buildProblem, type CachedBuild } from "../cached-build.js";
import { hostedBinary } from "../host-driver.js";
import type { ClientPeer } from "../../plan/peer.js";
import { rustCrate, sdkLabel } from "../installed.js";

const TARGET_DIR = join("build", "rmcp-target");
const BINARY = join(BUILD_DIR, "rmcp-target", "release", "rmcp-client");
// the version cargo built (the crate's source paths in the binary); Cargo.toml pins it
const SDK = sdkLabel("rmcp (Rust SDK) {}", rustCrate("rmcp", { manifest: join(LAB_DIR, "peers", "rmcp", "Cargo.toml"), binary: BINARY }));

export const RMCP_BUILD: CachedBuild = {
  name: "rmcp",
  toolchain: ["cargo", "--version"],
  inputs: ["lab/peers/rmcp/Cargo.toml", "lab/peers/rmcp/Cargo.lock", "lab/peers/rmcp/src"],
  outputs: [BINARY],
  // --locked: the committed Cargo.lock decides every crate; the target dir lives under build/
  steps: [{ command: "cargo", args: ["build", "--release", "--locked", "--manifest-path", "lab/peers/rmcp/Cargo.toml", "--target-dir", TARGET_DIR] }],
  // a first build on a small machine compiles tokio, serde and rmcp: minutes
  boundMs: 900_000,
};

export const RMCP_CLIENT: ClientPeer = {
  name: "rmcp",
  sdk: SDK,
  loops: ["sdk"],
  meaning: "the rmcp 3.11.0 client as shipped (serve_client over its own stdin/stdout; its serve loop spawns a task per inbound request)",
  era: "2025-11-25",
  unavailable: () => buildProblem(RMCP_BUILD),
  // --host: one driver process runs many sessions (lab/transports/hosts.md; src/host.rs)
  driver: hostedBinary(BINARY),
};
