// Client peer driver `go` (github.com/modelcontextprotocol/go-sdk, exact version in go.mod) speaking
// MCP over its own stdin/stdout (or, hosted, over a session's connections: host.go). One driver is
// one session: it executes a SessionPlan (lab/plan/behaviour.ts) and writes DriverEvent lines
// (lab/plan/driver-events.ts) through emit; both ends of that contract are in contract.go.
// CLI: go-client --plan PLAN.json --events EVENTS.jsonl, or go-client --host (host.go)
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The handler is handed no JSON-RPC id; idTag carries it from this driver's Connection in
// params._meta. The lab records the wire on its side of the pipe: the tag is not in the evidence.
const idTag = "reentrancy-lab/wire-id"

// classify names an SDK error itself: timed out, cancelled, a JSON-RPC error (its code), closed.
func classify(err error) map[string]any {
	var wire *jsonrpc.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return map[string]any{"code": nil, "message": err.Error(), "type": "timed out"}
	case errors.Is(err, context.Canceled):
		return map[string]any{"code": nil, "message": err.Error(), "type": "cancelled"}
	case errors.As(err, &wire):
		return map[string]any{"code": wire.Code, "message": err.Error(), "type": "JSON-RPC error"}
	case errors.Is(err, mcp.ErrConnectionClosed):
		return map[string]any{"code": nil, "message": err.Error(), "type": "connection closed"}
	}
	return map[string]any{"code": nil, "message": err.Error(), "type": fmt.Sprintf("%T", err)}
}

// taggingConn is the SDK's stdio Connection, with each inbound elicitation/create's,
// sampling/createMessage's and roots/list's id put in its params._meta (idTag) on the way in, and
// each message the SDK writes shown to the answer log on the way out (answers.go).
type taggingTransport struct {
	inner   mcp.Transport
	answers *answerLog
}
type taggingConn struct {
	mcp.Connection
	answers *answerLog
}

func (t taggingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	return taggingConn{conn, t.answers}, err
}

func (c taggingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if err == nil {
		c.answers.written(msg)
	}
	return err
}

func (c taggingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil && req.IsCall() && tagged[req.Method] {
		params := map[string]any{} // roots/list may come without params
		if len(req.Params) == 0 || json.Unmarshal(req.Params, &params) == nil && params != nil {
			meta := map[string]any{idTag: req.ID.Raw()}
			if old, ok := params["_meta"].(map[string]any); ok {
				maps.Copy(meta, old)
			}
			params["_meta"] = meta
			req.Params, _ = json.Marshal(params) // a map just decoded
		}
	}
	return msg, err
}

type driver struct {
	ctx       context.Context // the session's: a host's kill cancels it
	*eventLog                 // the session's events (emit)
	plan      *plan
	mu        sync.Mutex
	current   *call // the call in progress: its label and callback
	callbacks int
	listed    map[string]bool
	opened    func() // the current call's first form opened (giveUpAfterMs counts from it)
}

func (d *driver) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	d.mu.Lock()
	d.callbacks++
	cur, n, opened := d.current, d.callbacks, d.opened
	label, b := cur.Label, cur.Callback
	cur.running.Add(1)
	d.mu.Unlock()
	defer cur.running.Done()
	id := wireID(req.Params.Meta)
	where := func(k string, v any) map[string]any { return map[string]any{"n": n, "call": label, k: v} }
	d.emit("callback.entered", id, "elicitation/create", map[string]any{"n": n, "call": label})
	if opened != nil {
		opened()
	}
	if b == nil { // no behaviour for this call: refuse, as a client with no callback would
		d.emit("callback.left", id, "elicitation/create", where("error", "no callback for this call"))
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Elicitation not supported"}
	}
	a, aborted := d.behave(ctx, b, func(ctx context.Context, n *nested) (map[string]bool, error) { return d.nest(ctx, req.Session, n) })
	if aborted {
		d.emit("callback.aborted", id, "elicitation/create", where("reason", "the handler's context was cancelled: "+context.Cause(ctx).Error()))
	}
	d.emit("callback.left", id, "elicitation/create", where("action", a.Action))
	// Content exactly as the plan gives it: whatever refuses it is the SDK's own check (client.go elicit).
	return &mcp.ElicitResult{Action: a.Action, Content: a.Content}, nil
}

func names(res *mcp.ListToolsResult) map[string]bool {
	out := map[string]bool{}
	for _, t := range res.Tools {
		out[t.Name] = true
	}
	return out
}

// callTool runs one tools/call (callOutcome, steps.go); a given-up call's cancelled ctx makes the SDK
// retire the call and send notifications/cancelled (transport.go call).
func (d *driver) callTool(cs *mcp.ClientSession, c *call, limit time.Duration) map[string]any {
	return d.callOutcome(c, limit, func(ctx context.Context) (any, bool, error) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.Tool, Arguments: c.Args})
		if err != nil {
			return nil, false, err
		}
		return res.StructuredContent, res.IsError, nil
	})
}

func (d *driver) run(in io.ReadCloser, out io.WriteCloser) error {
	limit := time.Duration(d.plan.CallTimeoutMs) * time.Millisecond
	caps := &mcp.ClientCapabilities{}
	raw, _ := json.Marshal(d.plan.Capabilities)
	if err := json.Unmarshal(raw, caps); err != nil {
		return fmt.Errorf("capabilities: %w", err)
	}
	if _, ok := d.plan.Capabilities["roots"]; ok { // the SDK ignores Capabilities.Roots, declares RootsV2 (mcp/client.go:130-143, :272-275)
		caps.RootsV2 = &mcp.RootCapabilities{ListChanged: caps.Roots.ListChanged}
	}
	options := &mcp.ClientOptions{Capabilities: caps}
	if _, ok := d.plan.Capabilities["elicitation"]; ok {
		options.ElicitationHandler = d.elicit
	}
	if _, ok := d.plan.Capabilities["sampling"]; ok {
		options.CreateMessageHandler = d.sample // the SDK then declares sampling (mcp/client.go:89-96, :277-285)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "reentrancy-lab-client-go", Version: "0.1.0"}, options)
	if caps.RootsV2 != nil {
		d.answerRoots(client)
	}
	answers := newAnswerLog()
	client.AddReceivingMiddleware(answers.middleware) // added last, so outermost (mcp/shared.go:133-137)
	ctx, stop := context.WithTimeout(d.ctx, limit)
	defer stop()
	// The lab's era for this peer: 2025-11-25 (session.go; the SDK's default would probe server/discover first).
	transport := taggingTransport{&mcp.IOTransport{Reader: in, Writer: out}, answers}
	cs, err := client.Connect(ctx, transport, sessionOptions())
	if err != nil {
		return err
	}
	init := cs.InitializeResult()
	d.emit("note", nil, "", map[string]any{"negotiatedProtocol": init.ProtocolVersion, "server": init.ServerInfo.Name})
	if d.plan.ListToolsFirst {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			return err
		}
		d.mu.Lock()
		d.listed = names(res)
		d.mu.Unlock()
	}
	closeSession := func() {
		// Every answer a returned callback gave reaches the wire before the close (answers.go).
		if err := waitBounded(limit, "the SDK writing the answers its callbacks gave", answers.wait); err != nil {
			d.emit("note", nil, "", map[string]any{"unwrittenAnswers": err.Error()})
		}
		_ = cs.Close()
	}
	return d.runCalls(limit, func(c *call) map[string]any { return d.callTool(cs, c, limit) }, closeSession)
}
