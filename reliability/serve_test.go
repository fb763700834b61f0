package reliability

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// server is `baton serve` driven over its standard input and output as an
// editor would, recording every message it sends.
type server struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *syncBuffer
	done   chan struct{}

	mu     sync.Mutex
	cond   *sync.Cond
	msgs   []message
	nextID int
}

type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serve starts baton serve in dir and initializes it.
func serve(t *testing.T, dir string) *server {
	t.Helper()
	cmd := exec.Command(batonBin, "serve")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CLIO_CODER_STATE_DIR="+t.TempDir(), "CLIO_CODER_HOME=", "XDG_STATE_HOME="+t.TempDir())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, cmd: cmd, stdin: stdin, stderr: &syncBuffer{}, done: make(chan struct{})}
	s.cond = sync.NewCond(&s.mu)
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go s.read(bufio.NewReader(stdout))
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
		cmd.Wait()
	})
	s.call("initialize", map[string]any{"processId": nil, "rootUri": fileURI(dir), "capabilities": map[string]any{
		"textDocument": map[string]any{"diagnostic": map[string]any{}},
	}})
	s.send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	return s
}

func fileURI(p string) string { return (&url.URL{Scheme: "file", Path: p}).String() }

func (s *server) read(r *bufio.Reader) {
	defer close(s.done)
	for {
		n := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				s.cond.L.Lock()
				s.cond.Broadcast()
				s.cond.L.Unlock()
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			s.t.Errorf("baton serve wrote %q: %v", body, err)
			continue
		}
		s.mu.Lock()
		s.msgs = append(s.msgs, m)
		s.cond.Broadcast()
		s.mu.Unlock()
	}
}

func (s *server) send(v any) {
	body, err := json.Marshal(v)
	if err != nil {
		s.t.Fatal(err)
	}
	fmt.Fprintf(s.stdin, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

// call sends a request and waits for its answer, failing the test past
// the deadline (a hang).
func (s *server) call(method string, params any) message {
	s.t.Helper()
	s.mu.Lock()
	s.nextID++
	id := s.nextID
	s.mu.Unlock()
	s.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return s.wait(method, deadline, func(m message) bool { return string(m.ID) == strconv.Itoa(id) && m.Method == "" })
}

// wait waits for a message that ok accepts.
func (s *server) wait(what string, d time.Duration, ok func(message) bool) message {
	s.t.Helper()
	timer := time.AfterFunc(d, func() { s.mu.Lock(); s.cond.Broadcast(); s.mu.Unlock() })
	defer timer.Stop()
	end := time.Now().Add(d)
	s.mu.Lock()
	defer s.mu.Unlock()
	for seen := 0; ; {
		for ; seen < len(s.msgs); seen++ {
			if ok(s.msgs[seen]) {
				return s.msgs[seen]
			}
		}
		if time.Now().After(end) {
			s.t.Fatalf("no answer to %s within %v (a hang)\nstderr: %s", what, d, s.stderr.String())
		}
		select {
		case <-s.done:
			s.t.Fatalf("baton serve ended waiting for %s\nstderr: %s", what, s.stderr.String())
		default:
		}
		s.cond.Wait()
	}
}

// logged waits for the server's log (its standard error, copied from a
// pipe) to hold each of wants.
func (s *server) logged(d time.Duration, wants ...string) bool {
	for end := time.Now().Add(d); ; time.Sleep(10 * time.Millisecond) {
		log, all := s.stderr.String(), true
		for _, w := range wants {
			all = all && strings.Contains(log, w)
		}
		if all || time.Now().After(end) {
			return all
		}
	}
}

func (s *server) open(path, text string) string {
	u := fileURI(path)
	s.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": u, "languageId": "markdown", "version": 1, "text": text},
	}})
	return u
}

// pull asks for a document's diagnostics and returns the answer's result.
func (s *server) pull(u string) string {
	s.t.Helper()
	m := s.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": u}})
	if len(m.Error) > 0 {
		s.t.Fatalf("pull of %s: %s", u, m.Error)
	}
	return string(m.Result)
}

// shutdown asks the server to stop and waits for it to.
func (s *server) shutdown() {
	s.t.Helper()
	s.call("shutdown", nil)
	s.send(map[string]any{"jsonrpc": "2.0", "method": "exit"})
	select {
	case <-s.done:
	case <-time.After(deadline):
		s.t.Fatalf("baton serve did not exit (a hang)")
	}
}

// .baton.yaml as a folder, a named pipe or a dangling link: the server goes
// on with the defaults and says why, in a message to the user and in its
// log, as `baton check` exits 2 naming it.
func TestServerConfigurationErrors(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"pipe", "folder", "dangling"} {
		write(t, dir, map[string]string{d + "/stop.md": packet})
	}
	mkfifo(t, filepath.Join(dir, "pipe", ".baton.yaml"))
	if err := os.Mkdir(filepath.Join(dir, "folder", ".baton.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "gone.yaml", filepath.Join(dir, "dangling", ".baton.yaml"))
	s := serve(t, dir)
	for d, want := range map[string]string{
		"pipe":     "pipe/.baton.yaml is a named pipe, not a configuration file",
		"folder":   "folder/.baton.yaml is a folder, not a configuration file",
		"dangling": "dangling/.baton.yaml is a symbolic link to nothing (it points to gone.yaml)",
	} {
		u := s.open(filepath.Join(dir, d, "stop.md"), packet)
		if got := s.pull(u); !strings.Contains(got, "packet/missing-section") {
			t.Errorf("%s: the document was not checked with the defaults: %s", d, got)
		}
		s.wait("window/showMessage naming "+d, 10*time.Second, func(m message) bool {
			return m.Method == "window/showMessage" && strings.Contains(string(m.Params), want)
		})
		if !s.logged(10*time.Second, "configuration ignored", want) {
			t.Errorf("%s: the log does not say %q:\n%s", d, want, s.stderr.String())
		}
	}
	s.shutdown()
}

// A named pipe beside a workflow: the folder is listed for files that may
// declare the workflow's bundle, and the pipe is refused without blocking
// the check, the server's pull or its shutdown.
func TestNamedPipeBesideWorkflow(t *testing.T) {
	const flow = "---\nprops:\n  x: {type: string}\n---\n\n<Probe />\n"
	dir := t.TempDir()
	write(t, dir, map[string]string{"flows/flow.md": flow})
	mkfifo(t, filepath.Join(dir, "flows", "other.md"))
	r := run(t, dir, "", "check", "flows/flow.md")
	contains(t, "stdout", r.stdout, "flows/flow.md:")
	r = run(t, dir, "", "check", ".")
	contains(t, "stderr", r.stderr, "baton: read flows/other.md: not a regular file: it is a named pipe")
	s := serve(t, dir)
	u := s.open(filepath.Join(dir, "flows", "flow.md"), flow)
	s.pull(u)
	s.shutdown()
}

// A named pipe where specrew keeps its conformance sessions: the stop
// message's workspace state is read without waiting on it, in check and in
// the server.
func TestNamedPipeForSpecrewSessions(t *testing.T) {
	const stop = "I updated the provider and tests. Stopping here.\n\n<!-- SPECREW-STOP-INTENT: intermediate -->\n"
	dir := t.TempDir()
	write(t, dir, map[string]string{"stop.md": stop, ".specrew/runtime/keep": ""})
	mkfifo(t, filepath.Join(dir, ".specrew", "runtime", "conformance-sessions"))
	run(t, dir, "", "check", "stop.md")
	s := serve(t, dir)
	u := s.open(filepath.Join(dir, "stop.md"), stop)
	s.pull(u)
	s.shutdown()
}

// Code spans of every length, each run of backticks maybe closed: the
// server answers a pull of them (in time linear in the text:
// TestGrowthIsLinear), as baton check does (TestSlowShapes).
func TestServerCodeSpansOfEveryLength(t *testing.T) {
	dir := t.TempDir()
	s := serve(t, dir)
	u := s.open(filepath.Join(dir, "spans.md"), backtickRuns(scale(1_000, 3_000)))
	s.pull(u)
	s.shutdown()
}
