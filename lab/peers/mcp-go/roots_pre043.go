//go:build mcpgo_pre043

// Before mcp-go v0.43.0, for the release history only (lab/peers/mcp-go/history.ts builds those
// releases with -tags mcpgo_pre043): no roots handler (the Client answers sampling, elicitation and
// ping only, v0.41.0 client/client.go:474-485), so none is set; the history's roots row is n/a there.
package main

import "github.com/mark3labs/mcp-go/client"

func rootsHandler(*driver) []client.ClientOption { return nil }
