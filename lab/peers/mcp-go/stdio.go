//go:build !mcpgo_pre040

// The SDK's stdio transport on the streams it is given, from mcp-go v0.40.0 on: no stderr of a
// subprocess to read, so none (Close skips a nil one, v0.40.0 client/transport/stdio.go:208-212).
// stdio_pre040.go is the same function before.
package main

import (
	"io"

	"github.com/mark3labs/mcp-go/client/transport"
)

func newIO(in io.Reader, out io.WriteCloser) *transport.Stdio { return transport.NewIO(in, out, nil) }
