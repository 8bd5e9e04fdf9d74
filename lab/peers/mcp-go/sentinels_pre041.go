//go:build mcpgo_pre041

// Before mcp-go v0.41.0, for the release history only (lab/peers/mcp-go/history.ts builds those
// releases with -tags mcpgo_pre041): there are no sentinel errors, and a JSON-RPC error reply becomes
// errors.New(its message), its code dropped (v0.40.0 client/client.go:168-169), so classify names
// such an error by its Go type only.
package main

var sentinelCodes []struct {
	err  error
	code int
}
