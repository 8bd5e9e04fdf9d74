// Why a peer's pin is older than the newest stable release its registry serves, said once per peer
// and package. `peers --latest` and tests/pin-lag.test.ts read it: a pin that lags with no reason
// here fails under CI, so the card never silently falls behind; a reason whose pin no longer lags
// is said too, so it does not outlive its cause.

export interface HeldBack {
  peer: string;
  package: string;
  /** "held back because ...": what the newer release would break or change, or what it needs */
  because: string;
}

// a framework that pins mcp below 2 in its METADATA: the column shows the framework on what it installs
const mcp1 = (peer: string, requires: string): HeldBack => ({ peer, package: "mcp", because: `its framework's METADATA requires ${requires}: the column is the framework as pip resolves it` });

export const HELD_BACK: readonly HeldBack[] = [
  { peer: "mastra", package: "@modelcontextprotocol/client", because: "@mastra/mcp 2.0.0 depends on exactly @modelcontextprotocol/client 2.0.0 (its package.json)" },
  { peer: "py1", package: "mcp", because: "the 1.x column on purpose: 1.29.0 is the release the deadlock was first seen in (py130 is the last 1.x)" },
  { peer: "py130", package: "mcp", because: "the 1.x column on purpose: 1.30.0 is the last 1.x, what `mcp<2` resolves to" },
  { peer: "pydantic-ai-mcp1", package: "mcp", because: "the mcp 1.x column on purpose: pydantic-ai beside a `mcp<2` pin (pydantic-ai is its 2.x column)" },
  { peer: "pydantic-ai-mcp1", package: "fastmcp-slim", because: "fastmcp-slim 4.x requires mcp 2.x: under `mcp<2` pip resolves 3.x" },
  { peer: "google-adk-mcp1", package: "mcp", because: "the mcp 1.x column on purpose: google-adk beside langchain-mcp-adapters' `mcp<2` (google-adk is its 2.x column)" },
  mcp1("semantic-kernel", "mcp>=1.26.0,<2.0"),
  mcp1("langchain-py", "mcp<2.0.0,>=1.24.0"),
  mcp1("mcp-use", "mcp<2.0.0,>=1.24.0"),
  mcp1("fast-agent", "mcp==1.10.1"),
  { peer: "fast-agent", package: "fast-agent-mcp", because: "0.10.x requires Python >=3.12 and the lab's venvs are CPython 3.11: 0.2.36 is the newest that installs" },
  { peer: "kotlin-0.14", package: "io.modelcontextprotocol:kotlin-sdk-client-jvm", because: "the 0.14 column on purpose: the last release whose read loop awaits each inbound handler (0.15.0 launches each, kotlin-sdk PR #884; kotlin is the current column)" },
  {
    peer: "rust-mcp-sdk",
    package: "rust-mcp-sdk",
    because:
      "2.0.0 speaks 2026-07-28 only: it is built on rust-mcp-schema 2.0.0's 2026_07_28 schema, its client runtime sends no initialize (client_runtime.rs:1304-1313 starts the stream; server/discover at :1200-1240) and a server asks through input-required rounds the client drives (MRTR, :39-46); the driver's 2025-11-25 types are gone (10 compile errors: InitializeRequestParams, PingRequest, task stores). Moving is a modern-era column of its own; its reading task still awaits each inbound request's handler (:383-408, :255), serial as 1.1.0",
  },
  // Spring AI's expectations cite its annotations and auto-configure modules' sources
  ...["org.springframework.ai:spring-ai-mcp", "io.modelcontextprotocol.sdk:mcp"].map((pkg) => ({
    peer: "spring-ai",
    package: pkg,
    because: "Spring AI 2.0.1 and 2.0.2 publish no sources jar for spring-ai-mcp-annotations or spring-ai-autoconfigure-mcp-client-common (404), whose lines the expectations cite; the Java SDK is the one Spring AI 2.0.0 depends on",
  })),
  // the card's expectations cite the SDK's source lines (mcp-core's sources jar in ~/.m2): a release without one cannot be re-read
  ...["java", "java-sync"].map((peer) => ({
    peer,
    package: "io.modelcontextprotocol.sdk:mcp",
    because: "2.2.0 resolves (its jars fetch), but Maven Central serves no mcp-core sources jar for 2.1.0 or 2.2.0 (404), so the expectations, written from 2.0.1's source lines, cannot be re-read against the installed source (and 2.2.0 is more than a line shift: its jar adds a 2026-07-28 client, io.modelcontextprotocol.modern, and McpClientSession.class changed)",
  })),
];
