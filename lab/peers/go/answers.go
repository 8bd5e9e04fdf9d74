// The driver's wait for the SDK's own writes before it closes the session. The SDK writes the answer
// to a server's request after the handler has returned, from the handler's goroutine
// (internal/jsonrpc2/conn.go:706-723, v1.8.0): the driver's next step (the next call, or the close)
// can run first. A session closed in that gap loses an answer the callback gave (seen once under
// load: call-cancelled's withdrawn form, answered cancel, never reached the server). So the driver
// closes only once every answer whose handler has returned is on the wire, within the call limit.
package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type answerLog struct {
	mu   sync.Mutex
	due  map[string]bool // a tagged request's id: its handler returned, its answer not yet written
	cond *sync.Cond
}

func newAnswerLog() *answerLog {
	a := &answerLog{due: map[string]bool{}}
	a.cond = sync.NewCond(&a.mu)
	return a
}

// middleware is the outermost receiving middleware: when it returns, so has the handler, and the
// SDK's write of the answer follows (the public Client.AddReceivingMiddleware, mcp/client.go:1150-1154).
func (a *answerLog) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if p := req.GetParams(); tagged[method] && p != nil {
			if id := wireID(p.GetMeta()); id != nil {
				a.mu.Lock()
				a.due[fmt.Sprint(id)] = true
				a.mu.Unlock()
			}
		}
		return res, err
	}
}

// written is called for every message the SDK writes: an answer settles its id.
func (a *answerLog) written(msg jsonrpc.Message) {
	if res, ok := msg.(*jsonrpc.Response); ok {
		a.mu.Lock()
		delete(a.due, fmt.Sprint(res.ID.Raw()))
		a.cond.Broadcast()
		a.mu.Unlock()
	}
}

// wait returns once no returned handler's answer is still to be written (the caller bounds it).
func (a *answerLog) wait() {
	a.mu.Lock()
	for len(a.due) > 0 {
		a.cond.Wait()
	}
	a.mu.Unlock()
}
