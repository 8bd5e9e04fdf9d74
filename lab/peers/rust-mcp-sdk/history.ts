// rust-mcp-sdk's release history (issue 46): the newest patch of every minor of the rust-mcp-sdk crate the crates.io
// sparse index lists (yanked and pre-releases left out), the lab's rust-mcp-sdk driver (lab/peers/rust-mcp-sdk/)
// built against each by cargo (lab/peers/cargo-history.ts) into build/history/rust-mcp-sdk/<version>/, one build at
// a time over one shared target dir. A release the driver does not compile against is a "not run" cell carrying
// the compiler's first error line.
import { existsSync } from "node:fs";
import { relative } from "node:path";
import { PROJECT_ROOT } from "../../paths.js";
import { atLeast, everyFormRow, type HistorySource } from "../../plan/history.js";
import type { ClientPeer } from "../../plan/peer.js";
import { cargoHistory } from "../cargo-history.js";

/** rust-mcp-sdk 1.0.x requires rust-mcp-transport ^1.0.0 and rust-mcp-schema ^0.10 (crates.io index); rust-mcp-transport
 *  1.0.1 moved to rust-mcp-schema ^1.0 (its Cargo.toml:83-86), so cargo today gives 1.0.x two schemas and it does not
 *  compile (client_runtime.rs:223: expected `RequestId`, found `rust_mcp_schema::RequestId`). With the transport it had on
 *  its day, 1.0.0 (rust-mcp-schema ^0.10 with latest and schema_utils), it builds as published. */
export const TRANSPORT_ON_ITS_DAY = (release: string) =>
  atLeast(release, "1.0.0") && !atLeast(release, "1.1.0") ? [{ crate: "rust-mcp-transport", version: "1.0.0" }] : [];

// contract.rs: the driver contract its main.rs includes from the rmcp driver's folder
export const RUST_MCP_SDK_CARGO = cargoHistory({
  sdk: "rust-mcp-sdk",
  crate: "rust-mcp-sdk",
  driver: "lab/peers/rust-mcp-sdk",
  binary: "rust-mcp-sdk-client",
  inputs: ["lab/peers/rmcp/src/contract.rs"],
  precise: TRANSPORT_ON_ITS_DAY,
});

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
    "The lab's rust-mcp-sdk driver (lab/peers/rust-mcp-sdk/src/) built by cargo against each release: its Cargo.toml pinned to the release in build/history/rust-mcp-sdk/<version>/, its Cargo.lock as the start (cargo moves what the release needs; 1.0.x with rust-mcp-transport 1.0.0, as it resolved on its day: a later transport brings a second rust-mcp-schema), one shared target dir (build/history/rust-mcp-sdk/target), the binary copied out per release.",
};
