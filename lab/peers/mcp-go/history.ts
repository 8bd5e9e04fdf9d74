// mark3labs/mcp-go's release history (issue 46): github.com/mark3labs/mcp-go, the newest patch of every minor the
// Go module proxy lists, the lab's mcp-go driver (lab/peers/mcp-go/, its links to the go driver's SDK-free files
// followed) built against each by the shared Go build (lab/peers/go-history.ts) into build/history/mcp-go/<version>/.
// Releases before v1.0.0 have no client.WithProtocolVersion: they build with -tags mcpgo_pre1 (era_pre1.go, the one
// call that differs); before v0.44 the driver's other calls are missing too (transport.ErrTransportClosed, before
// v0.41 the sentinel errors, before v0.40 elicitation), so those releases are not run, each with its compiler error.
import { atLeast, type HistorySource } from "../../plan/history.js";
import { goHistorySource, type GoHistoryBuild } from "../go-history.js";

export const MCP_GO_MODULE = "github.com/mark3labs/mcp-go";
/** client.WithProtocolVersion is first in v1.0.0 (client/client.go:115). */
export const FIRST_WITH_PROTOCOL_OPTION = "1.0.0";

export const MCP_GO_HISTORY_BUILD: GoHistoryBuild = {
  sdk: "mcp-go",
  module: MCP_GO_MODULE,
  driverDir: "lab/peers/mcp-go",
  tags: (release) => (atLeast(release, FIRST_WITH_PROTOCOL_OPTION) ? [] : ["mcpgo_pre1"]),
};

/** `history --client mcp-go`. */
export const MCP_GO_HISTORY: HistorySource = goHistorySource(MCP_GO_HISTORY_BUILD, {
  driver: "mcp-go",
  title: "mcp-go (mark3labs)",
  meaning: (release) => `mark3labs/mcp-go ${release}'s Client as shipped, the lab's mcp-go driver built against it${atLeast(release, FIRST_WITH_PROTOCOL_OPTION) ? "" : " (-tags mcpgo_pre1: the SDK's own protocol version)"}`,
  installNote: `The lab's mcp-go driver (lab/peers/mcp-go/, linked files copied) in build/history/mcp-go/<version>/, its go.mod edited to require the release and tidied through the Go module proxy, then go build (with -tags mcpgo_pre1 before v${FIRST_WITH_PROTOCOL_OPTION}: era_pre1.go); other modules as go mod tidy resolves them.`,
});
