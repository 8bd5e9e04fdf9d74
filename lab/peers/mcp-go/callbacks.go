// The mcp-go driver's three handlers (WithElicitationHandler, WithSamplingHandler, WithRootsHandler,
// client.go:86-108) and every callback's one nested path (nest); a form's Behaviour is steps.go's. The
// stdio transport runs each inbound request's handler on its own goroutine (stdio.go:759-785), so a
// nested request's reply is read while the handler waits. No model is called: the answers are
// built from lab/plan/behaviour.ts SYNTHETIC_COMPLETION and SYNTHETIC_ROOTS.
package main

import (
	"context"
	"errors"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// lab/plan/behaviour.ts SYNTHETIC_COMPLETION's words and SYNTHETIC_ROOTS.
const (
	syntheticText  = "synthetic completion (no model was called)"
	syntheticModel = "lab-synthetic"
)

var syntheticRoots = []mcp.Root{
	{URI: "file:///synthetic/lab-root-a", Name: "lab-root-a"},
	{URI: "file:///synthetic/lab-root-b", Name: "lab-root-b"},
}

// nest sends a planned nested request on the driver's one client, recording nested.sent, then
// nested.ok or nested.failed. listed: a nested tools/list's names.
func (d *driver) nest(ctx context.Context, n *nested) (listed map[string]bool, err error) {
	nctx, cancel := context.WithTimeout(ctx, time.Duration(n.TimeoutMs)*time.Millisecond)
	defer cancel()
	d.emit("nested.sent", nil, n.Method, nil)
	if n.Method == "tools/list" {
		var res *mcp.ListToolsResult
		if res, err = d.client.ListTools(nctx, mcp.ListToolsRequest{}); err == nil {
			listed = names(res)
		}
	} else {
		err = d.client.Ping(nctx)
	}
	if err != nil {
		d.emit("nested.failed", nil, n.Method, classify(err))
		return nil, err
	}
	d.emit("nested.ok", nil, n.Method, nil)
	return listed, nil
}

// enter records callback.entered for the call in progress and starts its give-up clock.
func (d *driver) enter(ctx context.Context, method string) (cur *call, id any, where func(string, any) map[string]any) {
	d.mu.Lock()
	d.callbacks++
	cur, n, opened := d.current, d.callbacks, d.opened
	cur.running.Add(1)
	d.mu.Unlock()
	id = wireID(ctx)
	where = func(k string, v any) map[string]any { return map[string]any{"n": n, "call": cur.Label, k: v} }
	d.emit("callback.entered", id, method, map[string]any{"n": n, "call": cur.Label})
	if opened != nil {
		opened()
	}
	return cur, id, where
}

// plainTurn is the sampling and roots handler's one body: enter, think the plan's delayMs, send its
// nested request (a failure changes nothing else), leave with accept; false when none is planned.
func (d *driver) plainTurn(ctx context.Context, method string, plan func(*call) *turn) bool {
	cur, id, where := d.enter(ctx, method)
	defer cur.running.Done()
	t := plan(cur)
	if t == nil {
		d.emit("callback.left", id, method, where("error", "no "+method+" callback planned"))
		return false
	}
	time.Sleep(time.Duration(t.DelayMs) * time.Millisecond) // the plan's think time
	if t.Nested != nil {
		_, _ = d.nest(context.WithoutCancel(ctx), t.Nested) // recorded by nest
	}
	d.emit("callback.left", id, method, where("action", "accept"))
	return true
}

type sampler struct{ d *driver }

func (s sampler) CreateMessage(ctx context.Context, _ mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	if !s.d.plainTurn(ctx, "sampling/createMessage", func(c *call) *turn { return c.Sampling }) {
		return nil, errors.New("no sampling planned for this call")
	}
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.TextContent{Type: "text", Text: syntheticText}},
		Model:           syntheticModel,
		StopReason:      "endTurn",
	}, nil
}

type rooter struct{ d *driver }

func (r rooter) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	if !r.d.plainTurn(ctx, "roots/list", func(c *call) *turn { return c.Roots }) {
		return nil, errors.New("no roots planned for this call")
	}
	return &mcp.ListRootsResult{Roots: syntheticRoots}, nil
}
