//go:build !mcpgo_pre040

// The elicitation handler from mcp-go v0.40.0 on: client.WithElicitationHandler and
// mcp.ElicitationRequest (first in v0.40.0 client/client.go:50, mcp/types.go:829; v0.39.1 has
// neither). elicit_pre040.go is the same function before.
package main

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

func elicitationHandler(d *driver) []client.ClientOption {
	return []client.ClientOption{client.WithElicitationHandler(elicitor{d})}
}

type elicitor struct{ d *driver }

// Elicit: an error becomes -32603 with its words (stdio.go:774-778); a plan without a callback refuses.
func (e elicitor) Elicit(ctx context.Context, _ mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	d := e.d
	cur, id, where := d.enter(ctx, "elicitation/create")
	defer cur.running.Done()
	b := cur.Callback
	if b == nil {
		d.emit("callback.left", id, "elicitation/create", where("error", "no callback for this call"))
		return nil, errors.New("Elicitation not supported")
	}
	a, aborted := d.behave(ctx, b, d.nest) // a watched abort never comes: the handler's ctx is Start's (stdio.go:760-763)
	if aborted {
		d.emit("callback.aborted", id, "elicitation/create", where("reason", "the handler's context was cancelled: "+context.Cause(ctx).Error()))
	}
	d.emit("callback.left", id, "elicitation/create", where("action", a.Action))
	res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseAction(a.Action)}}
	if a.Content != nil { // exactly as the plan gives it
		res.Content = a.Content
	}
	return res, nil
}
