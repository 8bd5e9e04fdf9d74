// mark3labs/mcp-go's release history (issue 46): github.com/mark3labs/mcp-go, the newest patch of every minor the
// Go module proxy lists, the lab's mcp-go driver (lab/peers/mcp-go/, its links to the go driver's SDK-free files
// followed) built against each by the shared Go build (lab/peers/go-history.ts) into build/history/mcp-go/<version>/.
// Where the public API changed, a pair of files says which call the driver uses from which release: the untagged
// one (what the newest release and the set-up build) and a _pre one selected here by a build tag for the releases
// before (RELEASE_SHIMS). Before v0.34.0 the Client answers no inbound request at all (no WithSamplingHandler, no
// transport.RequestHandler): nothing could arise, so 0.32.0 is not built for and stays not run with its compiler error.
import { atLeast, formBehaviours, type HistorySource } from "../../plan/history.js";
import { goHistorySource, type GoHistoryBuild } from "../go-history.js";

export const MCP_GO_MODULE = "github.com/mark3labs/mcp-go";
/** client.WithProtocolVersion is first in v1.0.0 (client/client.go:115). */
export const FIRST_WITH_PROTOCOL_OPTION = "1.0.0";
/** client.WithElicitationHandler and mcp.ElicitationRequest are first in v0.40.0 (client/client.go:50, mcp/types.go:829). */
export const FIRST_WITH_ELICITATION = "0.40.0";
/** client.WithRootsHandler is first in v0.43.0 (client/client.go:52; v0.41.0 has none, and v0.42 has only betas). */
export const FIRST_WITH_ROOTS = "0.43.0";

/** Each shim's tag, the first release that does not need it, and its file (the untagged twin is the call from then on). */
export const RELEASE_SHIMS = [
  // client.WithProtocolVersion (v1.0.0 client/client.go:115): era.go / era_pre1.go
  { tag: "mcpgo_pre1", first: FIRST_WITH_PROTOCOL_OPTION, file: "era_pre1.go" },
  // transport.ErrTransportClosed (v0.44.0 client/transport/stdio.go:21): closed.go / closed_pre044.go
  { tag: "mcpgo_pre044", first: "0.44.0", file: "closed_pre044.go" },
  // client.WithRootsHandler (v0.43.0 client/client.go:52): roots.go / roots_pre043.go
  { tag: "mcpgo_pre043", first: FIRST_WITH_ROOTS, file: "roots_pre043.go" },
  // mcp.ErrParseError and the other sentinels (v0.41.0 mcp/errors.go:11): sentinels.go / sentinels_pre041.go
  { tag: "mcpgo_pre041", first: "0.41.0", file: "sentinels_pre041.go" },
  // client.WithElicitationHandler, mcp.ElicitationRequest (v0.40.0): elicit.go / elicit_pre040.go
  // and Stdio.Close's nil check on stderr (v0.40.0 client/transport/stdio.go:208): stdio.go / stdio_pre040.go
  { tag: "mcpgo_pre040", first: FIRST_WITH_ELICITATION, file: "elicit_pre040.go, stdio_pre040.go" },
  // mcp.CallToolResult.StructuredContent (v0.37.0 mcp/tools.go:46; v0.34.0 has none): result.go / result_pre037.go
  { tag: "mcpgo_pre037", first: "0.37.0", file: "result_pre037.go" },
] as const;

export const MCP_GO_HISTORY_BUILD: GoHistoryBuild = {
  sdk: "mcp-go",
  module: MCP_GO_MODULE,
  driverDir: "lab/peers/mcp-go",
  tags: (release) => RELEASE_SHIMS.filter((s) => !atLeast(release, s.first)).map((s) => s.tag),
};

const tagged = (release: string) => MCP_GO_HISTORY_BUILD.tags(release);
const noElicitation = `no elicitation before v${FIRST_WITH_ELICITATION}: no client.WithElicitationHandler, no mcp.ElicitationRequest, and the Client answers sampling/createMessage only (v0.39.1 client/client.go:462-469), so no form is sent`;

/** `history --client mcp-go`. */
export const MCP_GO_HISTORY: HistorySource = goHistorySource(MCP_GO_HISTORY_BUILD, {
  driver: "mcp-go",
  title: "mcp-go (mark3labs)",
  meaning: (release) => `mark3labs/mcp-go ${release}'s Client as shipped, the lab's mcp-go driver built against it${tagged(release).length ? ` (-tags ${tagged(release).join(",")}: ${RELEASE_SHIMS.filter((s) => tagged(release).includes(s.tag)).map((s) => s.file).join(", ")})` : ""}`,
  installNote: `The lab's mcp-go driver (lab/peers/mcp-go/, linked files copied) in build/history/mcp-go/<version>/, its go.mod edited to require the release and tidied through the Go module proxy, then go build, with a build tag for each API the release predates (${RELEASE_SHIMS.map((s) => `${s.tag} before v${s.first}: ${s.file}`).join("; ")}); other modules as go mod tidy resolves them.`,
  behaviours: {
    ...formBehaviours(FIRST_WITH_ELICITATION, noElicitation),
    rootsNested: { from: FIRST_WITH_ROOTS, why: `no roots handler before v${FIRST_WITH_ROOTS}: no client.WithRootsHandler, and the Client answers sampling, elicitation and ping only (v0.41.0 client/client.go:474-485), so roots/list has no callback to nest in` },
  },
});
