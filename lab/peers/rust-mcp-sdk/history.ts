// rust-mcp-sdk's release history (issue 46): the newest patch of every minor of the rust-mcp-sdk crate the crates.io
// sparse index lists (yanked and pre-releases left out), the lab's rust-mcp-sdk driver (lab/peers/rust-mcp-sdk/)
// built against each by cargo (lab/peers/cargo-history.ts) into build/history/rust-mcp-sdk/<version>/, one build at
// a time over one shared target dir. A release the driver does not compile against is a "not run" cell carrying
// the compiler's first error line.
import { existsSync } from "node:fs";
import { relative } from "node:path";
import { PROJECT_ROOT } from "../../paths.js";
import { everyFormRow, type HistorySource } from "../../plan/history.js";
import type { ClientPeer } from "../../plan/peer.js";
import { cargoHistory } from "../cargo-history.js";

// contract.rs: the driver contract its main.rs includes from the rmcp driver's folder
export const RUST_MCP_SDK_CARGO = cargoHistory({ sdk: "rust-mcp-sdk", crate: "rust-mcp-sdk", driver: "lab/peers/rust-mcp-sdk", binary: "rust-mcp-sdk-client", inputs: ["lab/peers/rmcp/src/contract.rs"] });

/** A client peer on the release's binary: a fresh process per session (the SDK's stdio transport takes only the
 *  process's own stdin/stdout, so the driver has no --host mode: lab/peers/rust-mcp-sdk/index.ts). */
export function rustMcpSdkHistoryClient(version: string): ClientPeer {
  const binary = RUST_MCP_SDK_CARGO.binaryOf(version);
  return {
    name: `rust-mcp-sdk@${version}`,
    sdk: `rust-mcp-sdk ${version}`,
    loops: ["sdk"],
    meaning: `the rust-mcp-sdk ${version} client runtime as shipped, the lab's rust-mcp-sdk driver built against it`,
    era: "2025-11-25",
    unavailable: () => (existsSync(binary) ? undefined : `no driver built at ${relative(PROJECT_ROOT, binary)}`),
    driver: { kind: "process", command: (planFile, eventsFile) => ({ command: binary, args: ["--plan", planFile, "--events", eventsFile] }) },
  };
}

/** `history --client rust-mcp-sdk`. */
export const RUST_MCP_SDK_HISTORY: HistorySource = {
  sdk: "rust-mcp-sdk",
  title: "rust-mcp-sdk (Rust)",
  package: "rust-mcp-sdk",
  which: "The newest patch of every minor of the rust-mcp-sdk crate the crates.io sparse index lists (yanked and pre-releases left out)",
  releases: () => RUST_MCP_SDK_CARGO.releases(),
  install: RUST_MCP_SDK_CARGO.install,
  // one cargo build at a time: they share one target dir, and cargo's own lock would serialise them anyway
  installsAtOnce: 1,
  client: rustMcpSdkHistoryClient,
  behaviours: everyFormRow({ samplingAnswer: {} }),
  transports: ["stdio"],
  noTransport: "the rust-mcp-sdk driver speaks MCP on its own stdin/stdout only",
  installNote:
    "The lab's rust-mcp-sdk driver (lab/peers/rust-mcp-sdk/src/) built by cargo against each release: its Cargo.toml pinned to the release in build/history/rust-mcp-sdk/<version>/, its Cargo.lock as the start (cargo moves what the release needs), one shared target dir (build/history/rust-mcp-sdk/target), the binary copied out per release.",
};
