//go:build !mcpgo_pre037

// A tool call's result from mcp-go v0.37.0 on: CallToolResult.StructuredContent (v0.37.0
// mcp/tools.go:46; v0.34.0 has none). result_pre037.go is the same function before.
package main

import "github.com/mark3labs/mcp-go/mcp"

func structured(res *mcp.CallToolResult) any { return res.StructuredContent }
