//go:build !mcpgo_pre044

// A closed transport from mcp-go v0.44.0 on: transport.ErrTransportClosed (first in v0.44.0
// client/transport/stdio.go:21; v0.43.2 has none). closed_pre044.go is the same function before.
package main

import (
	"errors"

	"github.com/mark3labs/mcp-go/client/transport"
)

func closedError(err error) bool { return errors.Is(err, transport.ErrTransportClosed) }
