// The go driver's contract with the lab: the SessionPlan it reads (lab/plan/behaviour.ts), checked
// against session-plan.schema.json (generated from the zod definition, beside the binary in build/)
// and decoded refusing unknown fields (the twin of lab/peers/py/plan.py); and emit, the one function
// that writes DriverEvent lines (lab/plan/driver-events.ts).
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"golang.org/x/sys/unix"
)

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

// turn is a SamplingBehaviour or RootsBehaviour: think delayMs, then send nested if planned.
type turn struct {
	DelayMs int     `json:"delayMs"`
	Nested  *nested `json:"nested"`
}
type call struct {
	Label          string         `json:"label"`
	Tool           string         `json:"tool"`
	Args           map[string]any `json:"args"`
	Callback       *behaviour     `json:"callback"`
	GiveUpAfterMs  int            `json:"giveUpAfterMs"`
	AwaitCallbacks bool           `json:"awaitCallbacks"`
	Sampling       *turn          `json:"sampling"`
	Roots          *turn          `json:"roots"`
	running        sync.WaitGroup // the driver's: callbacks entered during this call, still running
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

// eventLog is one session's events file: every emit of that session writes through it. Once
// ended (a host killed the session) it writes nothing more, as a killed process would not.
type eventLog struct {
	sync.Mutex
	file  *os.File
	ended <-chan struct{}
}

// emit writes one DriverEvent line; t_ns is CLOCK_MONOTONIC (the lab's clock), read under the lock.
func (events *eventLog) emit(kind string, id any, method string, detail map[string]any) {
	events.Lock()
	defer events.Unlock()
	select {
	case <-events.ended:
		return
	default:
	}
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	event := map[string]any{"t_ns": ts.Nano(), "kind": kind, "id": id, "method": method, "detail": detail}
	for key, absent := range map[string]bool{"id": id == nil, "method": method == "", "detail": detail == nil} {
		if absent {
			delete(event, key)
		}
	}
	line, _ := json.Marshal(event)
	_, _ = events.file.Write(append(line, '\n'))
}
