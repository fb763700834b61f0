package reliability

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/baton-md/baton/mcpserver"
)

// mcpProc is `baton mcp` driven over its standard input and output as an
// agent host drives it: one JSON-RPC message a line.
type mcpProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *syncBuffer
	lines  chan []byte
	n      int
}

func startMCP(t *testing.T, dir string) *mcpProc {
	t.Helper()
	cmd := exec.Command(batonBin, "mcp", "--root", dir)
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
	p := &mcpProc{cmd: cmd, stdin: stdin, stderr: &syncBuffer{}, lines: make(chan []byte, 1000)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.lines)
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return
			}
			p.lines <- line
		}
	}()
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	p.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"reliability","version":"1"}}}`)
	if got := p.shape(t, p.next(t)); got != `"init" result` {
		t.Fatalf("initialize: %s", got)
	}
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return p
}

func (p *mcpProc) send(t *testing.T, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(p.stdin, l+"\n"); err != nil {
			t.Fatalf("baton mcp stopped reading: %v\nstderr: %s", err, p.stderr.String())
		}
	}
}

func (p *mcpProc) next(t *testing.T) []byte {
	t.Helper()
	select {
	case line, ok := <-p.lines:
		if !ok {
			t.Fatalf("baton mcp ended the session\nstderr: %s", p.stderr.String())
		}
		return line
	case <-time.After(deadline):
		t.Fatalf("baton mcp did not answer within %v (a hang)", deadline)
	}
	return nil
}

// shape is an answer as "ID result" or "ID error CODE".
func (p *mcpProc) shape(t *testing.T, line []byte) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil || string(m["jsonrpc"]) != `"2.0"` {
		t.Fatalf("baton mcp wrote %.200s: not a JSON-RPC 2.0 message", line)
	}
	if e, ok := m["error"]; ok {
		var wire struct {
			Code int `json:"code"`
		}
		if err := json.Unmarshal(e, &wire); err != nil {
			t.Fatalf("baton mcp wrote %.200s: %v", line, err)
		}
		return fmt.Sprintf("%s error %d", m["id"], wire.Code)
	}
	return fmt.Sprintf("%s result", m["id"])
}

// answers sends lines and a ping, and returns the shapes of the answers
// before the ping's, sorted.
func (p *mcpProc) answers(t *testing.T, n int, lines ...string) []string {
	t.Helper()
	p.n++
	ping := fmt.Sprintf("ping-%d", p.n)
	p.send(t, append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"ping"}`, ping))...)
	var got []string
	for pinged := false; !pinged || len(got) < n; {
		s := p.shape(t, p.next(t))
		if s == fmt.Sprintf("%q result", ping) && !pinged {
			pinged = true
			continue
		}
		if got = append(got, s); len(got) > n {
			break
		}
	}
	slices.Sort(got)
	return got
}

// end closes standard input and returns baton's exit code and peak RSS.
func (p *mcpProc) end(t *testing.T) (int, int64) {
	t.Helper()
	p.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(deadline):
		t.Fatalf("baton mcp did not end within %v of its input closing", deadline)
	}
	var rss int64
	if ru, ok := p.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss * 1024
	}
	for _, bad := range []string{"panic", "goroutine ", "DATA RACE"} {
		if strings.Contains(p.stderr.String(), bad) {
			t.Errorf("standard error holds %q:\n%s", bad, p.stderr.String())
		}
	}
	return p.cmd.ProcessState.ExitCode(), rss
}

// Each malformed line gets its JSON-RPC 2.0 error, and baton mcp answers
// the next line: the issue was that any of them ended the server, and the
// agent lost its tools for the rest of its session.
func TestMCPMalformedInput(t *testing.T) {
	p := startMCP(t, t.TempDir())
	const (
		parseError     = "null error -32700"
		invalidRequest = "null error -32600"
	)
	for _, tc := range []struct {
		name  string
		lines []string
		want  []string
	}{
		{"invalid JSON", []string{"not json"}, []string{parseError}},
		{"truncated line", []string{`{"jsonrpc":"2.0","id":2,"method":`, `{"jsonrpc":"2.0","id":"after","method":"ping"}`}, []string{`"after" result`, parseError}},
		{"batch", []string{`[{"jsonrpc":"2.0","id":3,"method":"ping"}]`}, []string{invalidRequest}},
		{"empty batch", []string{`[]`}, []string{invalidRequest}},
		{"version 1.0", []string{`{"jsonrpc":"1.0","id":4,"method":"ping"}`}, []string{invalidRequest}},
		{"bare string", []string{`"hello"`}, []string{invalidRequest}},
		{"number", []string{`42`}, []string{invalidRequest}},
		{"no method", []string{`{"jsonrpc":"2.0","id":5}`}, []string{invalidRequest}},
		{"id an object", []string{`{"jsonrpc":"2.0","id":{},"method":"ping"}`}, []string{invalidRequest}},
		{"10,000 nested brackets", []string{strings.Repeat("[", 10000) + strings.Repeat("]", 10000)}, []string{invalidRequest}},
		{"10,000 open brackets", []string{strings.Repeat("[", 10000)}, []string{parseError}},
		{"a line over the bound", []string{`{"jsonrpc":"2.0","id":6,"method":"ping","params":{"_meta":{"pad":"` + strings.Repeat("x", mcpserver.MaxFrameBytes) + `"}}}`}, []string{invalidRequest}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := slices.Sorted(slices.Values(tc.want))
			if got := p.answers(t, len(want), tc.lines...); !slices.Equal(got, want) {
				t.Errorf("answers %q, want %q", got, want)
			}
		})
	}
	code, rss := p.end(t)
	t.Logf("peak RSS %d MiB", rss>>20)
	if code != 0 {
		t.Errorf("exit %d, want 0 (its input closed)\nstderr: %s", code, p.stderr.String())
	}
	if rss > memCap {
		t.Errorf("peak RSS %d MiB, over the %d MiB cap (a line over the bound is skipped, not held)", rss>>20, memCap>>20)
	}
}

// Three calls at once, each checking a 4 MB document, are all answered,
// within the bounds: the server analyses a few at a time.
func TestMCPLargeCallsAtOnce(t *testing.T) {
	dir := t.TempDir()
	line := "Plain prose, and nothing of baton's.\n"
	doc := strings.Repeat(line, 4<<20/len(line))
	const n = 3
	for i := range n {
		write(t, dir, map[string]string{fmt.Sprintf("large-%d.md", i): doc})
	}
	p := startMCP(t, dir)
	for i := range n {
		p.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"check_document","arguments":{"path":%q}}}`, i, filepath.Join(dir, fmt.Sprintf("large-%d.md", i))))
	}
	var got []string
	for range n {
		got = append(got, p.shape(t, p.next(t)))
	}
	slices.Sort(got)
	if want := []string{"0 result", "1 result", "2 result"}; !slices.Equal(got, want) {
		t.Errorf("answers %q, want %q", got, want)
	}
	if code, rss := p.end(t); code != 0 || rss > memCap {
		t.Errorf("exit %d, peak RSS %d MiB", code, rss>>20)
	}
}
