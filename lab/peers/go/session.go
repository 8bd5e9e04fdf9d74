//go:build !gosdk_pre18

// The ClientSession's options from go-sdk v1.8.0 on: the lab's era for this peer, 2025-11-25
// (ClientSessionOptions.ProtocolVersion, first in v1.8.0 mcp/client.go:253; the SDK's default would
// probe server/discover first). session_pre18.go is the same function for the releases before.
package main

import "github.com/modelcontextprotocol/go-sdk/mcp"

func sessionOptions() *mcp.ClientSessionOptions {
	return &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
}
