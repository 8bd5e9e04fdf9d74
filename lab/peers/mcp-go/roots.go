//go:build !mcpgo_pre043

// The roots handler from mcp-go v0.43.0 on: client.WithRootsHandler (v0.43.0 client/client.go:52;
// v0.41.0 has none). roots_pre043.go is the same function before.
package main

import "github.com/mark3labs/mcp-go/client"

func rootsHandler(d *driver) []client.ClientOption {
	return []client.ClientOption{client.WithRootsHandler(rooter{d})}
}
