//go:build !mcpgo_pre1

// The client's options from mcp-go v1.0.0 on: the lab's era for this peer, 2025-11-25, which also
// keeps the client on initialize (WithProtocolVersion, first in v1.0.0 client/client.go:115; its
// default would probe server/discover first). era_pre1.go is the same function for the releases before.
package main

import (
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

func eraOptions() []client.ClientOption {
	return []client.ClientOption{client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION)}
}

// eraInitVersion: the initialize request names no version; the option above decides.
func eraInitVersion() string { return "" }
