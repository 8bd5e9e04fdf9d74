//go:build mcpgo_pre040

// Before mcp-go v0.40.0, for the release history only (lab/peers/mcp-go/history.ts builds those
// releases with -tags mcpgo_pre040): Stdio.Close closes the stderr it was given without a nil check
// (v0.39.1 client/transport/stdio.go:206-208), so a nil one panics at the session's end; the
// transport gets an empty one instead.
package main

import (
	"io"
	"strings"

	"github.com/mark3labs/mcp-go/client/transport"
)

func newIO(in io.Reader, out io.WriteCloser) *transport.Stdio {
	return transport.NewIO(in, out, io.NopCloser(strings.NewReader("")))
}
