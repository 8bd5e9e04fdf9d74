// The official Go SDK's release history (issue 46): github.com/modelcontextprotocol/go-sdk, the newest patch of
// every minor the Go module proxy lists, the lab's one Go driver (lab/peers/go/) built against each by the shared
// Go build (lab/peers/go-history.ts) into build/history/go/<version>/. Releases before v1.8.0 have no
// ClientSessionOptions.ProtocolVersion: they build with -tags gosdk_pre18 (session_pre18.go, the one line that
// differs); v1.1.0 does not compile (no public jsonrpc.Error, no RootsV2, no ClientOptions.Capabilities).
import { atLeast, type HistorySource } from "../../plan/history.js";
import { goHistorySource, type GoHistoryBuild } from "../go-history.js";

export const GO_SDK_MODULE = "github.com/modelcontextprotocol/go-sdk";
/** ClientSessionOptions.ProtocolVersion is first exported in v1.8.0 (mcp/client.go:249-254; v1.7.0 :249-253 has protocolVersion). */
export const FIRST_WITH_SESSION_VERSION = "1.8.0";

export const GO_HISTORY_BUILD: GoHistoryBuild = {
  sdk: "go",
  module: GO_SDK_MODULE,
  driverDir: "lab/peers/go",
  tags: (release) => (atLeast(release, FIRST_WITH_SESSION_VERSION) ? [] : ["gosdk_pre18"]),
};

/** `history --client go`. */
export const GO_HISTORY: HistorySource = goHistorySource(GO_HISTORY_BUILD, {
  driver: "Go",
  title: "MCP Go SDK (modelcontextprotocol/go-sdk)",
  meaning: (release) => `the Go SDK ${release}'s ClientSession as shipped, the lab's Go driver built against it${atLeast(release, FIRST_WITH_SESSION_VERSION) ? "" : " (-tags gosdk_pre18: the SDK's own protocol version)"}`,
  installNote: `The lab's Go driver (lab/peers/go/) copied into build/history/go/<version>/, its go.mod edited to require the release and tidied through the Go module proxy, then go build (with -tags gosdk_pre18 before v${FIRST_WITH_SESSION_VERSION}: session_pre18.go); other modules as go mod tidy resolves them.`,
});
