// The go drivers' session steps that call no SDK, shared by the go and mcp-go drivers (lab/peers/
// mcp-go links this file): the calls in plan order (runCalls), one call with its give-up clock
// (callOutcome), a form callback's Behaviour (behave) and a bounded wait. Each driver passes its
// SDK's own send: the tools/call, the nested request, the close.
package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// The words of lab/peers/call-book.ts GIVE_UP_REASON.
const giveUpReason = "the client gave up on the call while its form was open"

var errGaveUp = errors.New(giveUpReason)

// callOutcome runs one tools/call through send; giveUpAfterMs, counted from the call's first form
// opening, cancels the call's ctx, and the driver's SDK then retires the call.
func (d *driver) callOutcome(c *call, limit time.Duration, send func(context.Context) (result any, isError bool, err error)) map[string]any {
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
	result, isError, err := send(ctx)
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
	return map[string]any{"result": result, "isError": isError}
}

// runCalls runs the plan's calls in order through callTool, then closes the session (bounded).
func (d *driver) runCalls(limit time.Duration, callTool func(*call) map[string]any, closeSession func()) error {
	for i := range d.plan.Calls {
		c := &d.plan.Calls[i]
		d.emit("call.started", nil, "", map[string]any{"call": c.Label})
		outcome := callTool(c)
		outcome["call"] = c.Label
		d.emit("tool.result", nil, "", outcome)
		// A call that gave up may leave its form open: the next call waits for it (bounded).
		if c.AwaitCallbacks {
			if err := waitBounded(limit, "a callback of call "+c.Label, c.running.Wait); err != nil {
				return err
			}
		}
	}
	if err := waitBounded(limit, "closing the session", closeSession); err != nil {
		return err
	}
	d.emit("note", nil, "", map[string]any{"sessionClosed": true})
	return nil
}

// behave runs a form callback's Behaviour; nest sends its nested request on the driver's SDK.
// aborted when watchAbort saw the handler's ctx end.
func (d *driver) behave(ctx context.Context, b *behaviour, nest func(context.Context, *nested) (map[string]bool, error)) (answer, bool) {
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
		listed, err := nest(watch, b.Nested)
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

func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }
