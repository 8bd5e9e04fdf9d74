// One session from its arguments and its three streams (runSession), and the session-host mode
// (lab/transports/hosts.md): `go-client --host` reads control lines on stdin and runs each request
// as runSession on a goroutine, its streams the three unix-socket connections it opens for it.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "--host" {
		os.Exit(runHost(os.Stdin, os.Stdout))
	}
	os.Exit(runSession(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// runSession is the whole driver for one session: what the process exits with (2: bad arguments
// or a refused plan, 1: the session failed), each failure one line on errw (the lab quotes a
// driver's last stderr line). ctx ends when a host kills the session.
func runSession(ctx context.Context, args []string, in io.ReadCloser, out io.WriteCloser, errw io.Writer) (code int) {
	fail := func(code int, format string, args ...any) int {
		fmt.Fprintf(errw, "go-client: "+format+"\n", args...)
		return code
	}
	defer func() { // a panic in this goroutine ends this session only, as it would have ended the process
		if r := recover(); r != nil {
			code = fail(2, "panic: %v", r)
		}
	}()
	flags := flag.NewFlagSet(os.Args[0], flag.ContinueOnError)
	flags.SetOutput(errw)
	planPath := flags.String("plan", "", "the SessionPlan (JSON)")
	eventsPath := flags.String("events", "", "where to write the DriverEvent lines")
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2 // flag has written its line and the usage
	}
	if *planPath == "" || *eventsPath == "" || flags.NArg() > 0 {
		return fail(2, "usage: go-client --plan PLAN.json --events EVENTS.jsonl")
	}
	p, err := readPlan(*planPath)
	if err != nil {
		return fail(2, "bad plan %s: %s", *planPath, oneLine(err))
	}
	file, err := os.Create(*eventsPath)
	if err != nil {
		return fail(2, "events file: %s", oneLine(err))
	}
	d := &driver{ctx: ctx, eventLog: &eventLog{file: file, ended: ctx.Done()}, plan: p, listed: map[string]bool{}, current: &call{}}
	err = d.run(in, out)
	if err != nil {
		d.emit("note", nil, "", map[string]any{"sessionError": classify(err)})
	}
	d.Lock() // a callback the session abandoned may still emit: it finds the file closed
	file.Close()
	d.Unlock()
	if err != nil {
		return fail(1, "session failed: %s", oneLine(err))
	}
	return 0
}

// hosted is one running session: its connections (stdin, stdout, stderr) and what cancels it.
type hosted struct {
	conns  [3]net.Conn
	cancel context.CancelFunc
}

type host struct {
	mu       sync.Mutex // guards sessions and orders the replies: one line at a time on out
	out      io.Writer
	sessions map[int64]*hosted
}

func (h *host) reply(v map[string]any) {
	line, _ := json.Marshal(v)
	h.mu.Lock()
	defer h.mu.Unlock()
	_, _ = h.out.Write(append(line, '\n'))
}

// end takes session id out of the table (false: it had already ended), closes its connections and
// cancels it: whoever ends a session first replies for it.
func (h *host) end(id int64) bool {
	h.mu.Lock()
	s, ok := h.sessions[id]
	delete(h.sessions, id)
	h.mu.Unlock()
	if ok {
		s.cancel() // first: the session's events end here
		for _, c := range s.conns {
			_ = c.Close()
		}
	}
	return ok
}

// dial opens the session's three connections in the protocol's order, each with its first line.
func dial(id int64, socket string) (conns [3]net.Conn, err error) {
	for i, role := range []string{"stdin", "stdout", "stderr"} {
		if conns[i], err = net.Dial("unix", socket); err == nil {
			_, err = fmt.Fprintf(conns[i], "%d %s\n", id, role)
		}
		if err != nil {
			for _, c := range conns[:i+1] {
				if c != nil {
					_ = c.Close()
				}
			}
			return conns, fmt.Errorf("%s connection: %w", role, err)
		}
	}
	return conns, nil
}

func (h *host) start(id int64, argv []string, socket string) {
	h.mu.Lock()
	_, taken := h.sessions[id]
	h.mu.Unlock()
	if taken {
		h.reply(map[string]any{"id": id, "error": fmt.Sprintf("session %d is running", id)})
		return
	}
	conns, err := dial(id, socket)
	if err != nil {
		h.reply(map[string]any{"id": id, "error": oneLine(err)})
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.mu.Lock()
	h.sessions[id] = &hosted{conns: conns, cancel: cancel}
	h.mu.Unlock()
	h.reply(map[string]any{"id": id, "pid": os.Getpid(), "hosted": true})
	go func() {
		code := runSession(ctx, argv, conns[0], conns[1], conns[2])
		if h.end(id) { // not killed meanwhile: its connections are closed, now its status
			h.reply(map[string]any{"id": id, "exit": code, "signal": nil})
		}
	}()
}

type request struct {
	ID     *int64   `json:"id"`
	Argv   []string `json:"argv"`
	Socket string   `json:"socket"`
	Kill   string   `json:"kill"`
}

// runHost serves control requests from in until it ends, then ends every session left; replies go
// to out and nowhere else, the host's own diagnostics to its stderr.
func runHost(in io.Reader, out io.Writer) int {
	h := &host{out: out, sessions: map[int64]*hosted{}}
	lines := bufio.NewScanner(in)
	lines.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for lines.Scan() {
		var req request
		if err := json.Unmarshal(lines.Bytes(), &req); err != nil || req.ID == nil {
			fmt.Fprintf(os.Stderr, "go-client host: not a request: %.200q\n", lines.Text())
			continue
		}
		switch {
		case req.Kill == "SIGTERM" || req.Kill == "SIGKILL":
			if h.end(*req.ID) {
				h.reply(map[string]any{"id": *req.ID, "exit": nil, "signal": req.Kill})
			}
		case req.Kill != "":
			fmt.Fprintf(os.Stderr, "go-client host: kill %d: unknown signal %q\n", *req.ID, req.Kill)
		case req.Socket == "":
			h.reply(map[string]any{"id": *req.ID, "error": "no socket in the request"})
		default:
			h.start(*req.ID, req.Argv, req.Socket)
		}
	}
	if err := lines.Err(); err != nil {
		fmt.Fprintf(os.Stderr, "go-client host: control: %s\n", oneLine(err))
	}
	h.mu.Lock()
	ids := make([]int64, 0, len(h.sessions))
	for id := range h.sessions {
		ids = append(ids, id)
	}
	h.mu.Unlock()
	for _, id := range ids {
		h.end(id)
	}
	return 0
}
