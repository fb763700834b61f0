// Package lspclient is a minimal language-server client over a child
// process's standard input and output, for the latency and memory
// measurements of `baton serve`: JSON-RPC 2.0 with Content-Length framing,
// requests the server makes answered with null, every
// textDocument/publishDiagnostics delivered with the time it was read, and
// (with Trace set) the server's own timing of each from its $/logTrace.
package lspclient

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Publish is one textDocument/publishDiagnostics the client read.
type Publish struct {
	URI      string
	Version  int
	Count    int       // diagnostics in it
	Received time.Time // when its last byte was read
}

// Client talks to one server process.
type Client struct {
	Cmd       *exec.Cmd
	Publishes chan Publish
	// Trace is the trace Initialize asks for ("messages", "verbose"), and
	// Traces the $/logTrace messages then received (dropped when full).
	Trace  string
	Traces chan string

	in      io.WriteCloser
	wmu     sync.Mutex
	mu      sync.Mutex
	nextID  int
	pending map[int]chan json.RawMessage
	done    chan struct{}
}

// Start runs bin with args (e.g. "serve") and reads its output.
func Start(bin string, args ...string) (*Client, error) {
	cmd := exec.Command(bin, args...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	c := New(out, in)
	c.Cmd = cmd
	return c, nil
}

// New returns a client reading the server's output from out and writing
// to its input in (for a server run in-process).
func New(out io.Reader, in io.WriteCloser) *Client {
	c := &Client{in: in, Publishes: make(chan Publish, 1<<16), Traces: make(chan string, 1<<16), pending: map[int]chan json.RawMessage{}, done: make(chan struct{})}
	go c.read(bufio.NewReaderSize(out, 1<<20))
	return c
}

type message struct {
	ID     *json.RawMessage `json:"id,omitempty"`
	Method string           `json:"method,omitempty"`
	Params json.RawMessage  `json:"params,omitempty"`
	Result json.RawMessage  `json:"result,omitempty"`
	Error  json.RawMessage  `json:"error,omitempty"`
}

func (c *Client) read(r *bufio.Reader) {
	defer close(c.done)
	for {
		n := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		if n < 0 {
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		now := time.Now()
		var m message
		if json.Unmarshal(body, &m) != nil {
			continue
		}
		switch {
		case m.Method == "textDocument/publishDiagnostics":
			var p struct {
				URI         string            `json:"uri"`
				Version     *int              `json:"version"`
				Diagnostics []json.RawMessage `json:"diagnostics"`
			}
			if json.Unmarshal(m.Params, &p) == nil {
				v := -1
				if p.Version != nil {
					v = *p.Version
				}
				c.Publishes <- Publish{URI: p.URI, Version: v, Count: len(p.Diagnostics), Received: now}
			}
		case m.Method == "$/logTrace":
			var p struct {
				Message string `json:"message"`
				Verbose string `json:"verbose"`
			}
			if json.Unmarshal(m.Params, &p) == nil {
				if p.Verbose != "" {
					p.Message += VerboseSep + p.Verbose
				}
				select {
				case c.Traces <- p.Message:
				default:
				}
			}
		case m.Method != "" && m.ID != nil: // a request of the server's: answer null
			c.write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
		case m.Method == "" && m.ID != nil:
			id, _ := strconv.Atoi(string(*m.ID))
			c.mu.Lock()
			ch := c.pending[id]
			delete(c.pending, id)
			c.mu.Unlock()
			if ch != nil {
				ch <- m.Result
			}
		}
	}
}

func (c *Client) write(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n", len(data)); err != nil {
		return err
	}
	_, err = c.in.Write(data)
	return err
}

// Call sends a request and waits for its result.
func (c *Client) Call(method string, params any) (json.RawMessage, error) {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan json.RawMessage, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	if err := c.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	select {
	case res := <-ch:
		return res, nil
	case <-c.done:
		return nil, fmt.Errorf("%s: the server closed its output", method)
	case <-time.After(30 * time.Second):
		return nil, fmt.Errorf("%s: no answer in 30s", method)
	}
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error {
	return c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// Initialize runs the handshake with initializationOptions opts (the
// client offers no pull diagnostics, so the server pushes).
func (c *Client) Initialize(rootURI string, opts any) error {
	params := map[string]any{
		"processId": os.Getpid(), "rootUri": rootURI,
		"capabilities":          map[string]any{"textDocument": map[string]any{"publishDiagnostics": map[string]any{"versionSupport": true}}},
		"initializationOptions": opts,
	}
	if c.Trace != "" {
		params["trace"] = c.Trace
	}
	if _, err := c.Call("initialize", params); err != nil {
		return err
	}
	return c.Notify("initialized", map[string]any{})
}

// WaitPublish waits for the publish of version v of uri, dropping others.
func (c *Client) WaitPublish(uri string, v int, timeout time.Duration) (Publish, error) {
	deadline := time.After(timeout)
	for {
		select {
		case p := <-c.Publishes:
			if p.URI == uri && p.Version == v {
				return p, nil
			}
		case <-deadline:
			return Publish{}, fmt.Errorf("no diagnostics for %s version %d in %v", uri, v, timeout)
		case <-c.done:
			return Publish{}, fmt.Errorf("the server closed its output")
		}
	}
}

// Close shuts the server down (shutdown, exit) and waits for it.
func (c *Client) Close() error {
	_, _ = c.Call("shutdown", nil)
	_ = c.Notify("exit", nil)
	c.in.Close()
	if c.Cmd == nil {
		return nil
	}
	return c.Cmd.Wait()
}

// VmRSS returns a process's resident set size and peak (VmHWM), in bytes,
// read from /proc.
func VmRSS(pid int) (rss, hwm int64, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb << 10
		case "VmHWM:":
			hwm = kb << 10
		}
	}
	return rss, hwm, nil
}

// ServerTime waits for the server's $/logTrace of the publishDiagnostics of
// version v of uri, dropping others, and returns the time it says passed
// from receiving that version to sending its diagnostics.
func (c *Client) ServerTime(uri string, v int, timeout time.Duration) (time.Duration, error) {
	d, _, err := c.ServerTrace(uri, v, timeout)
	return d, err
}

// VerboseSep joins a trace's message and its verbose part in Traces.
const VerboseSep = " | "

// ServerTrace is ServerTime with the trace's verbose part (with Trace
// "verbose": where the time went), "" when there is none.
func (c *Client) ServerTrace(uri string, v int, timeout time.Duration) (time.Duration, string, error) {
	deadline := time.After(timeout)
	prefix := fmt.Sprintf("publishDiagnostics %s version %d ", uri, v)
	for {
		select {
		case m := <-c.Traces:
			if !strings.HasPrefix(m, prefix) {
				continue
			}
			m, verbose, _ := strings.Cut(m, VerboseSep)
			_, rest, ok := strings.Cut(m, ": sent ")
			took, ok2 := strings.CutSuffix(rest, " after the version was received")
			d, err := time.ParseDuration(took)
			if !ok || !ok2 || err != nil {
				return 0, "", fmt.Errorf("cannot read the time in the trace %q", m)
			}
			return d, verbose, nil
		case <-deadline:
			return 0, "", fmt.Errorf("no trace of %s version %d in %v", uri, v, timeout)
		case <-c.done:
			return 0, "", fmt.Errorf("the server closed its output")
		}
	}
}
