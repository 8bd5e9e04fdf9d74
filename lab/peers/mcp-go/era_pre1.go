//go:build mcpgo_pre1

// The client's options before mcp-go v1.0.0, for the release history only (lab/peers/mcp-go/history.ts
// builds the 0.x releases with -tags mcpgo_pre1): there is no WithProtocolVersion, so the initialize
// request names mcp.LATEST_PROTOCOL_VERSION itself, as the SDK's own examples of the time do. From
// v0.44.0 on Initialize would put it there anyway when the request names none (v0.44.1
// client/client.go:217-218; v0.58.0 :241-243); before, it sends the request's version as it is
// (v0.43.2 client/client.go:207-211), and an empty one gets the server's latest, 2025-11-25, which
// the client then refuses as not in mcp.ValidProtocolVersions (v0.43.2 :227-228). The version is
// 2025-11-25 from v0.44 on (v0.44.1 mcp/types.go:139), 2025-06-18 in v0.37-v0.43 (v0.43.2 :112),
// 2025-03-26 in v0.34 (v0.34.0 mcp/types.go:99).
package main

import (
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

func eraOptions() []client.ClientOption { return nil }

func eraInitVersion() string { return mcp.LATEST_PROTOCOL_VERSION }
