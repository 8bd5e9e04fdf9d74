// Client peer driver `go` (github.com/modelcontextprotocol/go-sdk, exact version in go.mod) speaking
// MCP over its own stdin/stdout. It executes a SessionPlan (lab/peers/behaviour.ts) and writes
// DriverEvent lines (lab/peers/driver-events.ts) through one function, emit.
// CLI: go-client --plan PLAN.json --events EVENTS.jsonl (the plan is checked against
// session-plan.schema.json beside the binary, then decoded strictly).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sys/unix"
)

// The words of lab/peers/perform.ts GIVE_UP_REASON.
const giveUpReason = "the client gave up on the call while its form was open"

// The handler is handed no JSON-RPC id (ElicitationHandler(ctx, *ElicitRequest)); idTag carries the
// wire id from this driver's own Connection to it, inside params._meta. The lab records the wire on
// its side of the pipe, so the tag is never part of the evidence.
const idTag = "reentrancy-lab/wire-id"

type nested struct {
	Method    string `json:"method"`
	TimeoutMs int    `json:"timeoutMs"`
}
type answer struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content"` // nil: absent
}
type behaviour struct {
	DelayMs    int     `json:"delayMs"`
	Nested     *nested `json:"nested"`
	NeedTool   *string `json:"needTool"`
	Answer     answer  `json:"answer"`
	Otherwise  *answer `json:"otherwise"`
	WatchAbort bool    `json:"watchAbort"`
}
type call struct {
	Label          string         `json:"label"`
	Tool           string         `json:"tool"`
	Args           map[string]any `json:"args"`
	Callback       *behaviour     `json:"callback"`
	GiveUpAfterMs  int            `json:"giveUpAfterMs"`
	AwaitCallbacks bool           `json:"awaitCallbacks"`
}
type plan struct {
	Scenario       string         `json:"scenario"`
	Capabilities   map[string]any `json:"capabilities"`
	ListToolsFirst bool           `json:"listToolsFirst"`
	Calls          []call         `json:"calls"`
	CallTimeoutMs  int            `json:"callTimeoutMs"`
}

// readPlan validates the plan against the JSON Schema generated from the zod definition, then
// decodes it refusing unknown fields.
func readPlan(path string) (*plan, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	schemaText, err := os.ReadFile(filepath.Join(filepath.Dir(exe), "session-plan.schema.json"))
	if err != nil {
		return nil, fmt.Errorf("the plan's schema: %w", err)
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(schemaText, &schema); err != nil {
		return nil, fmt.Errorf("the plan's schema: %w", err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("the plan's schema: %w", err)
	}
	var instance any
	if err := json.Unmarshal(data, &instance); err != nil {
		return nil, err
	}
	if err := resolved.Validate(instance); err != nil {
		return nil, err
	}
	decoder := json.NewDecoder(bytes.NewReader(data))
	decoder.DisallowUnknownFields()
	var p plan
	if err := decoder.Decode(&p); err != nil {
		return nil, err
	}
	for i := range p.Calls {
		if p.Calls[i].Tool == "" {
			p.Calls[i].Tool = "calculate" // the schema's default
		}
		if p.Calls[i].Args == nil {
			p.Calls[i].Args = map[string]any{}
		}
	}
	return &p, nil
}

var events struct {
	sync.Mutex
	file *os.File
}

// emit writes one DriverEvent line; t_ns is CLOCK_MONOTONIC (the lab's process.hrtime clock),
// read under the lock so lines are in time order.
func emit(kind string, id any, method string, detail map[string]any) {
	events.Lock()
	defer events.Unlock()
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	event := map[string]any{"t_ns": ts.Nano(), "kind": kind}
	if id != nil {
		event["id"] = id
	}
	if method != "" {
		event["method"] = method
	}
	if detail != nil {
		event["detail"] = detail
	}
	line, _ := json.Marshal(event)
	_, _ = events.file.Write(append(line, '\n'))
}

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

// taggingConn is the SDK's stdio Connection, with each inbound elicitation/create's id put in its
// params._meta (idTag) on the way in.
type taggingTransport struct{ inner mcp.Transport }
type taggingConn struct{ mcp.Connection }

func (t taggingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	return taggingConn{conn}, err
}

func (c taggingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil && req.IsCall() && req.Method == "elicitation/create" {
		var params map[string]any
		if json.Unmarshal(req.Params, &params) == nil && params != nil {
			meta, _ := params["_meta"].(map[string]any)
			if meta == nil {
				meta = map[string]any{}
			}
			meta[idTag] = req.ID.Raw()
			params["_meta"] = meta
			if tagged, err := json.Marshal(params); err == nil {
				req.Params = tagged
			}
		}
	}
	return msg, err
}

type driver struct {
	plan      *plan
	mu        sync.Mutex
	label     string
	callbacks int
	listed    map[string]bool
	running   map[string]*sync.WaitGroup // callbacks still running, by the call they serve
	opened    func()                     // the current call's first form opened (giveUpAfterMs counts from it)
}

func (d *driver) behaviourOf(label string) *behaviour {
	for _, c := range d.plan.Calls {
		if c.Label == label {
			return c.Callback
		}
	}
	return nil
}

func (d *driver) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	d.mu.Lock()
	d.callbacks++
	n, label, opened := d.callbacks, d.label, d.opened
	if d.running[label] == nil {
		d.running[label] = &sync.WaitGroup{}
	}
	done := d.running[label]
	done.Add(1)
	d.mu.Unlock()
	defer done.Done()
	id := req.Params.Meta[idTag]
	if f, ok := id.(float64); ok {
		id = int64(f)
	}
	where := func(k string, v any) map[string]any { return map[string]any{"n": n, "call": label, k: v} }
	emit("callback.entered", id, "elicitation/create", map[string]any{"n": n, "call": label})
	if opened != nil {
		opened()
	}
	b := d.behaviourOf(label)
	if b == nil { // no behaviour for this call: refuse, as a client with no callback would
		emit("callback.left", id, "elicitation/create", where("error", "no callback for this call"))
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Elicitation not supported"}
	}
	a, aborted := d.behave(ctx, req.Session, b)
	if aborted {
		emit("callback.aborted", id, "elicitation/create", where("reason", "the handler's context was cancelled: "+context.Cause(ctx).Error()))
	}
	emit("callback.left", id, "elicitation/create", where("action", a.Action))
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
		nctx, cancel := context.WithTimeout(watch, time.Duration(b.Nested.TimeoutMs)*time.Millisecond)
		defer cancel()
		emit("nested.sent", nil, b.Nested.Method, nil)
		var err error
		if b.Nested.Method == "tools/list" {
			var res *mcp.ListToolsResult
			if res, err = cs.ListTools(nctx, nil); err == nil {
				known = names(res)
			}
		} else {
			err = cs.Ping(nctx, nil)
		}
		if err != nil {
			emit("nested.failed", nil, b.Nested.Method, classify(err))
			return otherwise, watch.Err() != nil
		}
		emit("nested.ok", nil, b.Nested.Method, nil)
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
func (d *driver) callTool(cs *mcp.ClientSession, c call, limit time.Duration) map[string]any {
	ctx, stop := context.WithTimeout(context.Background(), limit)
	defer stop()
	ctx, giveUp := context.WithCancelCause(ctx)
	defer giveUp(nil)
	opened, finished := make(chan struct{}), make(chan struct{})
	var once sync.Once
	d.mu.Lock()
	d.label, d.opened = c.Label, func() { once.Do(func() { close(opened) }) }
	d.mu.Unlock()
	if c.GiveUpAfterMs > 0 {
		go func() {
			select {
			case <-opened:
				select {
				case <-time.After(time.Duration(c.GiveUpAfterMs) * time.Millisecond): // the plan's limit, the stimulus
					giveUp(errGaveUp)
				case <-finished:
				}
			case <-finished:
			}
		}()
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.Tool, Arguments: c.Args})
	close(finished)
	d.mu.Lock()
	d.opened = nil
	d.mu.Unlock()
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

func (d *driver) run() error {
	limit := time.Duration(d.plan.CallTimeoutMs) * time.Millisecond
	caps := &mcp.ClientCapabilities{}
	raw, _ := json.Marshal(d.plan.Capabilities)
	if err := json.Unmarshal(raw, caps); err != nil {
		return fmt.Errorf("capabilities: %w", err)
	}
	options := &mcp.ClientOptions{Capabilities: caps}
	if _, ok := d.plan.Capabilities["elicitation"]; ok {
		options.ElicitationHandler = d.elicit
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "reentrancy-lab-client-go", Version: "0.1.0"}, options)
	ctx, stop := context.WithTimeout(context.Background(), limit)
	defer stop()
	// The lab's era for this peer: 2025-11-25 (the SDK's default would probe server/discover first).
	transport := taggingTransport{&mcp.IOTransport{Reader: os.Stdin, Writer: os.Stdout}}
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		return err
	}
	init := cs.InitializeResult()
	emit("note", nil, "", map[string]any{"negotiatedProtocol": init.ProtocolVersion, "server": init.ServerInfo.Name})
	if d.plan.ListToolsFirst {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			return err
		}
		d.mu.Lock()
		d.listed = names(res)
		d.mu.Unlock()
	}
	for _, c := range d.plan.Calls {
		emit("call.started", nil, "", map[string]any{"call": c.Label})
		outcome := d.callTool(cs, c, limit)
		outcome["call"] = c.Label
		emit("tool.result", nil, "", outcome)
		if c.AwaitCallbacks {
			d.mu.Lock()
			wg := d.running[c.Label]
			d.mu.Unlock()
			if wg != nil {
				if err := waitBounded(limit, "a callback of call "+c.Label, wg.Wait); err != nil {
					return err
				}
			}
		}
	}
	if err := waitBounded(limit, "closing the session", func() { _ = cs.Close() }); err != nil {
		return err
	}
	emit("note", nil, "", map[string]any{"sessionClosed": true})
	return nil
}

func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }

func main() {
	planPath := flag.String("plan", "", "the SessionPlan (JSON)")
	eventsPath := flag.String("events", "", "where to write the DriverEvent lines")
	flag.Parse()
	if *planPath == "" || *eventsPath == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "go-client: usage: go-client --plan PLAN.json --events EVENTS.jsonl")
		os.Exit(2)
	}
	p, err := readPlan(*planPath)
	if err != nil {
		fmt.Fprintf(os.Stderr, "go-client: bad plan %s: %s\n", *planPath, oneLine(err))
		os.Exit(2)
	}
	if events.file, err = os.Create(*eventsPath); err != nil {
		fmt.Fprintf(os.Stderr, "go-client: events file: %s\n", oneLine(err))
		os.Exit(2)
	}
	d := &driver{plan: p, listed: map[string]bool{}, running: map[string]*sync.WaitGroup{}}
	if err := d.run(); err != nil {
		emit("note", nil, "", map[string]any{"sessionError": classify(err)})
		fmt.Fprintf(os.Stderr, "go-client: session failed: %s\n", oneLine(err))
		events.file.Close()
		os.Exit(1)
	}
	events.file.Close()
}
