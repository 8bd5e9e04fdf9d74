//go:build mcpgo_pre044

// Before mcp-go v0.44.0, for the release history only (lab/peers/mcp-go/history.ts builds those
// releases with -tags mcpgo_pre044): no sentinel for a closed transport (v0.43.2 SendRequest checks
// only its ctx and then writes, client/transport/stdio.go:340-350), so classify names such an error
// by its Go type.
package main

func closedError(error) bool { return false }
