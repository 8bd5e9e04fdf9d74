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
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The words of lab/peers/call-book.ts GIVE_UP_REASON.
const giveUpReason = "the client gave up on the call while its form was open"

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
// sampling/createMessage's and roots/list's id put in its params._meta (idTag) on the way in.
type taggingTransport struct{ inner mcp.Transport }
type taggingConn struct{ mcp.Connection }

func (t taggingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	return taggingConn{conn}, err
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
	a, aborted := d.behave(ctx, req.Session, b)
	if aborted {
		d.emit("callback.aborted", id, "elicitation/create", where("reason", "the handler's context was cancelled: "+context.Cause(ctx).Error()))
	}
	d.emit("callback.left", id, "elicitation/create", where("action", a.Action))
	// Content exactly as the plan gives it: whatever refuses it is the SDK's own check (client.go elicit).
	return &mcp.ElicitResult{Action: a.Action, Content: a.Content}, nil
}

// behave runs the Behaviour's steps; aborted when watchAbort saw the handler's ctx end.
func (d *driver) behave(ctx context.Context, cs *mcp.ClientSession, b *behaviour) (answer, bool) {
	otherwise := answer{Action: "cancel"}
	if b.Otherwise != nil {
		otherwise = *b.Otherwise
	}
	watch := ctx
	if !b.WatchAbort {
		watch = context.WithoutCancel(ctx) // the abort is not watched
	}
	if b.DelayMs > 0 {
		timer := time.NewTimer(time.Duration(b.DelayMs) * time.Millisecond) // the plan's think time
		select {
		case <-timer.C:
		case <-watch.Done():
			timer.Stop()
			return otherwise, true
		}
	}
	d.mu.Lock()
	known := d.listed
	d.mu.Unlock()
	if b.Nested != nil {
		listed, err := d.nest(watch, cs, b.Nested)
		if err != nil {
			return otherwise, watch.Err() != nil
		}
		if listed != nil {
			known = listed
		}
	}
	if b.NeedTool != nil && !known[*b.NeedTool] {
		return otherwise, false
	}
	return b.Answer, false
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
// the call's ctx: the SDK then retires the call and sends notifications/cancelled (transport.go call).
func (d *driver) callTool(cs *mcp.ClientSession, c *call, limit time.Duration) map[string]any {
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
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.Tool, Arguments: c.Args})
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
	ctx, stop := context.WithTimeout(d.ctx, limit)
	defer stop()
	// The lab's era for this peer: 2025-11-25 (the SDK's default would probe server/discover first).
	transport := taggingTransport{&mcp.IOTransport{Reader: in, Writer: out}}
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
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
	for i := range d.plan.Calls {
		c := &d.plan.Calls[i]
		d.emit("call.started", nil, "", map[string]any{"call": c.Label})
		outcome := d.callTool(cs, c, limit)
		outcome["call"] = c.Label
		d.emit("tool.result", nil, "", outcome)
		// A call that gave up may leave its form open: the next call waits for it (bounded).
		if c.AwaitCallbacks {
			if err := waitBounded(limit, "a callback of call "+c.Label, c.running.Wait); err != nil {
				return err
			}
		}
	}
	if err := waitBounded(limit, "closing the session", func() { _ = cs.Close() }); err != nil {
		return err
	}
	d.emit("note", nil, "", map[string]any{"sessionClosed": true})
	return nil
}

func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }
