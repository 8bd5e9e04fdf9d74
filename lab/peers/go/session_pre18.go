//go:build gosdk_pre18

// The ClientSession's options before go-sdk v1.8.0, for the release history only (lab/peers/go/history.ts
// builds v1.2.0-v1.7.x with -tags gosdk_pre18): ClientSessionOptions has no exported field (v1.7.0
// mcp/client.go:249-253, protocolVersion unexported), so the client asks for its own latest version:
// 2025-06-18 up to v1.4.x (v1.4.1 mcp/shared.go:37), 2025-11-25 in v1.6.x (v1.6.1 :38), and 2026-07-28
// in v1.7.x (v1.7.0 :50), which probes server/discover first and falls back to initialize when the
// server refuses it (v1.7.0 mcp/client.go:318-370).
package main

import "github.com/modelcontextprotocol/go-sdk/mcp"

func sessionOptions() *mcp.ClientSessionOptions { return nil }
