//go:build mcpgo_pre1

// The client's options before mcp-go v1.0.0, for the release history only (lab/peers/mcp-go/history.ts
// builds the 0.x releases with -tags mcpgo_pre1): there is no WithProtocolVersion, and Initialize
// sends mcp.LATEST_PROTOCOL_VERSION when the request names none (v0.58.0 client/client.go:241-243),
// 2025-11-25 from v0.44 on (v0.44.1 and v0.58.0 mcp/types.go).
package main

import "github.com/mark3labs/mcp-go/client"

func eraOptions() []client.ClientOption { return nil }
