//go:build !mcpgo_pre041

// The sentinel errors from mcp-go v0.41.0 on (mcp.ErrParseError first in v0.41.0 mcp/errors.go:11);
// sentinels_pre041.go is the same list for the releases before, which have none.
package main

import "github.com/mark3labs/mcp-go/mcp"

// The JSON-RPC error codes of mcp-go's sentinel errors: JSONRPCErrorDetails.AsError wraps a known
// code's sentinel and keeps no code; any other code is lost, only its message kept (mcp/errors.go:178-250).
var sentinelCodes = []struct {
	err  error
	code int
}{
	{mcp.ErrParseError, mcp.PARSE_ERROR}, {mcp.ErrInvalidRequest, mcp.INVALID_REQUEST}, {mcp.ErrMethodNotFound, mcp.METHOD_NOT_FOUND},
	{mcp.ErrInvalidParams, mcp.INVALID_PARAMS}, {mcp.ErrInternalError, mcp.INTERNAL_ERROR}, {mcp.ErrRequestInterrupted, mcp.REQUEST_INTERRUPTED},
	{mcp.ErrResourceNotFound, mcp.RESOURCE_NOT_FOUND},
}
