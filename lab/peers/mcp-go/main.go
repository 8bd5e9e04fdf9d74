// Client peer driver `mcp-go` (github.com/mark3labs/mcp-go, exact version in go.mod; not the official
// go-sdk, which is the `go` peer) speaking MCP over its own stdin/stdout, or hosted over a session's
// connections. contract.go (the plan, emit) and host.go (runSession, --host) are the go driver's own
// files, linked here: they hold no SDK call, and a linked file shares them without a Go module
// between the two drivers. This file and callbacks.go are the session on mcp-go's public API.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// The words of lab/peers/call-book.ts GIVE_UP_REASON.
const giveUpReason = "the client gave up on the call while its form was open"

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

// classify names an SDK error itself: timed out, cancelled, a JSON-RPC error (its code), closed.
func classify(err error) map[string]any {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return map[string]any{"code": nil, "message": err.Error(), "type": "timed out"}
	case errors.Is(err, context.Canceled):
		return map[string]any{"code": nil, "message": err.Error(), "type": "cancelled"}
	case errors.Is(err, transport.ErrTransportClosed):
		return map[string]any{"code": nil, "message": err.Error(), "type": "connection closed"}
	}
	for _, s := range sentinelCodes {
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

var errGaveUp = errors.New(giveUpReason)

// callTool runs one tools/call; giveUpAfterMs, counted from the call's first form opening, cancels
// the call's ctx: the SDK then sends notifications/cancelled (client.go sendRequest, cancelRequest).
func (d *driver) callTool(c *call, limit time.Duration) map[string]any {
	ctx, stop := context.WithTimeout(d.ctx, limit)
	defer stop()
	ctx, giveUp := context.WithCancelCause(ctx)
	defer giveUp(nil)
	var once sync.Once
	var timer *time.Timer
	d.mu.Lock()
	d.current, d.opened = c, func() {
		once.Do(func() {
			if c.GiveUpAfterMs > 0 { // the plan's limit, the stimulus
				timer = time.AfterFunc(time.Duration(c.GiveUpAfterMs)*time.Millisecond, func() { giveUp(errGaveUp) })
			}
		})
	}
	d.mu.Unlock()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = c.Tool, c.Args
	res, err := d.client.CallTool(ctx, req)
	once.Do(func() {}) // no timer starts after this; once.Do orders the read of timer
	if timer != nil {
		timer.Stop()
	}
	switch {
	case err != nil && errors.Is(context.Cause(ctx), errGaveUp):
		return map[string]any{"error": map[string]any{"code": nil, "message": err.Error() + ": " + giveUpReason + " (its context was cancelled)"}}
	case err != nil:
		e := classify(err)
		return map[string]any{"error": map[string]any{"code": e["code"], "message": e["message"]}}
	}
	return map[string]any{"result": res.StructuredContent, "isError": res.IsError}
}

// waitBounded waits for f, or fails after limit.
func waitBounded(limit time.Duration, what string, f func()) error {
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
		return nil
	case <-time.After(limit):
		return fmt.Errorf("%s still running after %v", what, limit)
	}
}

func (d *driver) run(in io.ReadCloser, out io.WriteCloser) error {
	limit := time.Duration(d.plan.CallTimeoutMs) * time.Millisecond
	// The lab's era for this peer: 2025-11-25, which also keeps the client on initialize
	// (WithProtocolVersion, client.go:121-128; its default would probe server/discover first).
	options := []client.ClientOption{client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION)}
	// The plan's capabilities as declared; a handler fills only one left nil (client/protocol.go:59-73).
	var caps mcp.ClientCapabilities
	raw, _ := json.Marshal(d.plan.Capabilities)
	if err := json.Unmarshal(raw, &caps); err != nil {
		return fmt.Errorf("capabilities: %w", err)
	}
	options = append(options, client.WithClientCapabilities(caps))
	// A handler is set exactly when the plan declares its capability.
	if _, ok := d.plan.Capabilities["elicitation"]; ok {
		options = append(options, client.WithElicitationHandler(elicitor{d}))
	}
	if _, ok := d.plan.Capabilities["sampling"]; ok {
		options = append(options, client.WithSamplingHandler(sampler{d}))
	}
	if _, ok := d.plan.Capabilities["roots"]; ok {
		options = append(options, client.WithRootsHandler(rooter{d}))
	}
	// NewIO: the SDK's stdio transport on streams it was given (client/transport/stdio.go:233-247)
	d.client = client.NewClient(idTransport{transport.NewIO(in, out, nil)}, options...)
	ctx, stop := context.WithTimeout(d.ctx, limit)
	defer stop()
	// Start's ctx is every handler's ctx (stdio.go:264-266, :760-774): the session's, not this bounded one
	if err := d.client.Start(d.ctx); err != nil {
		return err
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "reentrancy-lab-client-mcp-go", Version: "0.1.0"}
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
	for i := range d.plan.Calls {
		c := &d.plan.Calls[i]
		d.emit("call.started", nil, "", map[string]any{"call": c.Label})
		outcome := d.callTool(c, limit)
		outcome["call"] = c.Label
		d.emit("tool.result", nil, "", outcome)
		// A call that gave up may leave its form open: the next call waits for it (bounded).
		if c.AwaitCallbacks {
			if err := waitBounded(limit, "a callback of call "+c.Label, c.running.Wait); err != nil {
				return err
			}
		}
	}
	if err := waitBounded(limit, "closing the session", func() { _ = d.client.Close() }); err != nil {
		return err
	}
	d.emit("note", nil, "", map[string]any{"sessionClosed": true})
	return nil
}

func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }
