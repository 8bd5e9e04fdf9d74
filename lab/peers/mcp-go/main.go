// Client peer driver `mcp-go` (github.com/mark3labs/mcp-go, exact version in go.mod; not the official
// go-sdk, which is the `go` peer) speaking MCP over its own stdin/stdout, or hosted over a session's
// connections. contract.go (the plan, emit), steps.go (the calls, a form's Behaviour) and host.go
// (runSession, --host) are the go driver's own files, linked here: they hold no SDK call, and a
// linked file shares them without a Go module between the two drivers. This file and callbacks.go
// are the session on mcp-go's public API.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// classify names an SDK error itself: timed out, cancelled, a JSON-RPC error (its code), closed.
func classify(err error) map[string]any {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return map[string]any{"code": nil, "message": err.Error(), "type": "timed out"}
	case errors.Is(err, context.Canceled):
		return map[string]any{"code": nil, "message": err.Error(), "type": "cancelled"}
	case closedError(err): // closed.go; closed_pre044.go before the sentinel
		return map[string]any{"code": nil, "message": err.Error(), "type": "connection closed"}
	}
	for _, s := range sentinelCodes { // sentinels.go; none before v0.41.0 (sentinels_pre041.go)
		if errors.Is(err, s.err) {
			return map[string]any{"code": s.code, "message": err.Error(), "type": "JSON-RPC error"}
		}
	}
	return map[string]any{"code": nil, "message": err.Error(), "type": fmt.Sprintf("%T", err)}
}

// idKey: the handler is handed neither the request's id nor its session (client.go:836-1004);
// idTransport puts each inbound request's id in the handler's ctx on the way in.
type idKey struct{}
type idTransport struct{ *transport.Stdio }

func (t idTransport) SetRequestHandler(handler transport.RequestHandler) {
	t.Stdio.SetRequestHandler(func(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
		return handler(context.WithValue(ctx, idKey{}, req.ID.Value()), req)
	})
}

func wireID(ctx context.Context) any {
	switch id := ctx.Value(idKey{}).(type) {
	case int64:
		return id
	case float64:
		return int64(id)
	default:
		return id
	}
}

type driver struct {
	ctx       context.Context // the session's: a host's kill cancels it
	*eventLog                 // the session's events (emit)
	plan      *plan
	client    *client.Client
	mu        sync.Mutex
	current   *call // the call in progress: its label and callback
	callbacks int
	listed    map[string]bool
	opened    func() // the current call's first form opened (giveUpAfterMs counts from it)
}

func names(res *mcp.ListToolsResult) map[string]bool {
	out := map[string]bool{}
	for _, t := range res.Tools {
		out[t.Name] = true
	}
	return out
}

// callTool runs one tools/call (callOutcome, steps.go); a given-up call's cancelled ctx makes the SDK
// send notifications/cancelled (client.go sendRequest :294-298, cancelRequest :324-352).
func (d *driver) callTool(c *call, limit time.Duration) map[string]any {
	return d.callOutcome(c, limit, func(ctx context.Context) (any, bool, error) {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = c.Tool, c.Args
		res, err := d.client.CallTool(ctx, req)
		if err != nil {
			return nil, false, err
		}
		return structured(res), res.IsError, nil // result.go; result_pre037.go before v0.37.0
	})
}

func (d *driver) run(in io.ReadCloser, out io.WriteCloser) error {
	limit := time.Duration(d.plan.CallTimeoutMs) * time.Millisecond
	// The lab's era for this peer: 2025-11-25, which also keeps the client on initialize (era.go;
	// WithProtocolVersion, client.go:121-128; its default would probe server/discover first).
	options := eraOptions()
	// The plan's capabilities as declared; a handler fills only one left nil (client/protocol.go:59-73).
	var caps mcp.ClientCapabilities
	raw, _ := json.Marshal(d.plan.Capabilities)
	if err := json.Unmarshal(raw, &caps); err != nil {
		return fmt.Errorf("capabilities: %w", err)
	}
	options = append(options, client.WithClientCapabilities(caps))
	// A handler is set exactly when the plan declares its capability.
	if _, ok := d.plan.Capabilities["elicitation"]; ok {
		options = append(options, elicitationHandler(d)...) // elicit.go; none before v0.40.0 (elicit_pre040.go)
	}
	if _, ok := d.plan.Capabilities["sampling"]; ok {
		options = append(options, client.WithSamplingHandler(sampler{d}))
	}
	if _, ok := d.plan.Capabilities["roots"]; ok {
		options = append(options, rootsHandler(d)...) // roots.go; none before v0.43.0 (roots_pre043.go)
	}
	// NewIO: the SDK's stdio transport on streams it was given (client/transport/stdio.go:233-247; stdio.go)
	d.client = client.NewClient(idTransport{newIO(in, out)}, options...)
	ctx, stop := context.WithTimeout(d.ctx, limit)
	defer stop()
	// Start's ctx is every handler's ctx (stdio.go:264-266, :760-774): the session's, not this bounded one
	if err := d.client.Start(d.ctx); err != nil {
		return err
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "reentrancy-lab-client-mcp-go", Version: "0.1.0"}
	init.Params.ProtocolVersion = eraInitVersion() // era.go: none; era_pre1.go: the SDK's latest
	res, err := d.client.Initialize(ctx, init)
	if err != nil {
		return err
	}
	d.emit("note", nil, "", map[string]any{"negotiatedProtocol": res.ProtocolVersion, "server": res.ServerInfo.Name})
	if d.plan.ListToolsFirst {
		tools, err := d.client.ListTools(ctx, mcp.ListToolsRequest{})
		if err != nil {
			return err
		}
		d.mu.Lock()
		d.listed = names(tools)
		d.mu.Unlock()
	}
	return d.runCalls(limit, func(c *call) map[string]any { return d.callTool(c, limit) }, func() { _ = d.client.Close() })
}
