// The go driver's sampling and roots callbacks, through one plainTurn (the twin of
// lab/peers/py/sampling.py plain_turn), and every callback's one nested path (nest). No model is
// called: the answers are built from lab/plan/behaviour.ts SYNTHETIC_COMPLETION and SYNTHETIC_ROOTS.
package main

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lab/plan/behaviour.ts SYNTHETIC_COMPLETION's words and SYNTHETIC_ROOTS.
const (
	syntheticText  = "synthetic completion (no model was called)"
	syntheticModel = "lab-synthetic"
)

var syntheticRoots = []*mcp.Root{
	{URI: "file:///synthetic/lab-root-a", Name: "lab-root-a"},
	{URI: "file:///synthetic/lab-root-b", Name: "lab-root-b"},
}

// The inbound requests whose JSON-RPC id taggingConn carries to the handler (idTag).
var tagged = map[string]bool{"elicitation/create": true, "sampling/createMessage": true, "roots/list": true}

// wireID is the JSON-RPC id taggingConn put in a request's params._meta (nil when absent).
func wireID(meta map[string]any) any {
	id := meta[idTag]
	if f, ok := id.(float64); ok {
		return int64(f)
	}
	return id
}

// nest sends a planned nested request on the callback's own session, recording nested.sent, then
// nested.ok or nested.failed: every callback's one nested path. listed: a nested tools/list's names.
func (d *driver) nest(ctx context.Context, cs *mcp.ClientSession, n *nested) (listed map[string]bool, err error) {
	nctx, cancel := context.WithTimeout(ctx, time.Duration(n.TimeoutMs)*time.Millisecond)
	defer cancel()
	d.emit("nested.sent", nil, n.Method, nil)
	if n.Method == "tools/list" {
		var res *mcp.ListToolsResult
		if res, err = cs.ListTools(nctx, nil); err == nil {
			listed = names(res)
		}
	} else {
		err = cs.Ping(nctx, nil)
	}
	if err != nil {
		d.emit("nested.failed", nil, n.Method, classify(err))
		return nil, err
	}
	d.emit("nested.ok", nil, n.Method, nil)
	return listed, nil
}

// plainTurn is the sampling and roots callback's one body: enter, think the plan's delayMs, send
// its nested request (a failure changes nothing else), leave with accept. It reports false, having
// recorded callback.left with an error, when the call in progress plans no such callback. The
// handler's cancellation is not watched (plans for these callbacks have no watchAbort).
func (d *driver) plainTurn(ctx context.Context, cs *mcp.ClientSession, id any, method string, plan func(*call) *turn) bool {
	d.mu.Lock()
	d.callbacks++
	cur, n, opened := d.current, d.callbacks, d.opened
	t := plan(cur)
	cur.running.Add(1)
	d.mu.Unlock()
	defer cur.running.Done()
	where := func(k string, v any) map[string]any { return map[string]any{"n": n, "call": cur.Label, k: v} }
	d.emit("callback.entered", id, method, map[string]any{"n": n, "call": cur.Label})
	if opened != nil {
		opened()
	}
	if t == nil {
		d.emit("callback.left", id, method, where("error", "no "+method+" callback planned"))
		return false
	}
	time.Sleep(time.Duration(t.DelayMs) * time.Millisecond) // the plan's think time
	if t.Nested != nil {
		_, _ = d.nest(context.WithoutCancel(ctx), cs, t.Nested) // recorded by nest
	}
	d.emit("callback.left", id, method, where("action", "accept"))
	return true
}

// sample is the ClientOptions.CreateMessageHandler (called by Client.createMessage, mcp/client.go:741-758):
// it answers the SDK's own CreateMessageResult.
func (d *driver) sample(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	if !d.plainTurn(ctx, req.Session, wireID(req.Params.Meta), "sampling/createMessage", func(c *call) *turn { return c.Sampling }) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "no sampling planned for this call"}
	}
	return &mcp.CreateMessageResult{Role: "assistant", Content: &mcp.TextContent{Text: syntheticText}, Model: syntheticModel, StopReason: "endTurn"}, nil
}

// answerRoots makes the roots callback. The SDK has no roots handler: it answers roots/list itself
// from the roots AddRoots gave it (mcp/client.go:666-673, listRoots :729-739). A receiving
// middleware (the public Client.AddReceivingMiddleware, :1150-1154, which handleReceive runs for
// every inbound request, mcp/shared.go:216-220) runs plainTurn first, in the handler's own goroutine,
// then hands the request on to the SDK's listRoots, which answers the synthetic roots.
func (d *driver) answerRoots(client *mcp.Client) {
	client.AddRoots(syntheticRoots...)
	client.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "roots/list" {
				return next(ctx, method, req)
			}
			var id any
			if p, ok := req.GetParams().(*mcp.ListRootsParams); ok && p != nil {
				id = wireID(p.Meta)
			}
			cs, _ := req.GetSession().(*mcp.ClientSession)
			if !d.plainTurn(ctx, cs, id, method, func(c *call) *turn { return c.Roots }) {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "no roots planned for this call"}
			}
			return next(ctx, method, req)
		}
	})
}
