//go:build mcpgo_pre037

// Before mcp-go v0.37.0, for the release history only (lab/peers/mcp-go/history.ts builds those
// releases with -tags mcpgo_pre037): CallToolResult has Content and IsError only (v0.34.0
// mcp/tools.go:36-43), the reply's structuredContent is dropped when it is read, so the call's
// result is recorded as null.
package main

import "github.com/mark3labs/mcp-go/mcp"

func structured(*mcp.CallToolResult) any { return nil }
