//go:build mcpgo_pre040

// Before mcp-go v0.40.0, for the release history only (lab/peers/mcp-go/history.ts builds those
// releases with -tags mcpgo_pre040): no elicitation (v0.39.1 has no WithElicitationHandler nor
// mcp.ElicitationRequest; its Client answers sampling/createMessage only, v0.39.1
// client/client.go:462-469), so no handler is set; the history's form rows are n/a there.
package main

import "github.com/mark3labs/mcp-go/client"

func elicitationHandler(*driver) []client.ClientOption { return nil }
