package server_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// The protocol-abuse suite: the real binary (`baton serve`, built once in
// TestMain) over its standard input and output, fed malformed frames,
// malformed JSON, wrong parameters, lifecycle violations, bad edits, a 64 MB
// message, a cancellation storm and concurrent requests. Each case asserts
// the exact answer (an error code, or no answer at all for a notification)
// and then that the next valid request is still served. The cases where the
// stream itself is unusable (a header that cannot be parsed, a truncated
// frame) assert instead that the process exits with code 1 and no panic.
// docs/reliability.md lists every case and what baton answers.

var batonBin string // built by TestMain

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "baton-abuse-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	batonBin = filepath.Join(dir, "baton")
	build := exec.Command("go", "build", "-o", batonBin, "../cmd/baton")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building ./cmd/baton:", err)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// rawResp is one response read from the server.
type rawResp struct {
	ID     string // the id as JSON: 7, "s", null
	Result json.RawMessage
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	used bool
}

// rawClient speaks bytes to a `baton serve` process.
type rawClient struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	wmu    sync.Mutex
	stderr *lockedBuffer
	exited chan struct{}
	code   int // valid once exited is closed

	mu     sync.Mutex
	cond   *sync.Cond
	resps  []*rawResp
	readEr error
	nextID int
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startRaw(t *testing.T) *rawClient {
	t.Helper()
	cmd := exec.Command(batonBin, "serve")
	cmd.Env = append(os.Environ(), "CLIO_CODER_STATE_DIR="+t.TempDir(), "CLIO_CODER_HOME=", "XDG_STATE_HOME="+t.TempDir())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &rawClient{t: t, cmd: cmd, stdin: stdin, stderr: &lockedBuffer{}, exited: make(chan struct{}), nextID: 1000}
	c.cond = sync.NewCond(&c.mu)
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	readDone := make(chan struct{})
	go func() { defer close(readDone); c.readLoop(bufio.NewReader(stdout)) }()
	go func() {
		<-readDone // Wait closes stdout: read it all first
		err := cmd.Wait()
		c.code = 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			c.code = ee.ExitCode()
		} else if err != nil {
			c.code = -1
		}
		close(c.exited)
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	}()
	t.Cleanup(func() {
		c.stdin.Close()
		select {
		case <-c.exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-c.exited
		}
		if s := c.stderr.String(); strings.Contains(s, "panic") || strings.Contains(s, "goroutine ") || strings.Contains(s, "DATA RACE") {
			t.Errorf("stderr shows a panic or a trace:\n%s", s)
		}
	})
	return c
}

func (c *rawClient) readLoop(r *bufio.Reader) {
	for {
		length := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				c.fail(err)
				return
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(v)
			}
		}
		if length < 0 {
			c.fail(fmt.Errorf("server sent a header without Content-Length"))
			return
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			c.fail(err)
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			rawResp
		}
		if !utf8.Valid(body) {
			c.fail(fmt.Errorf("server sent JSON that is not UTF-8: %q", body))
			return
		}
		if err := json.Unmarshal(body, &m); err != nil {
			c.fail(fmt.Errorf("server sent invalid JSON %q: %v", body, err))
			return
		}
		if m.Method != "" {
			if m.ID != nil { // a request to the client: answer null
				c.write(frame(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":null}`))
			}
			continue
		}
		resp := m.rawResp
		resp.ID = string(m.ID)
		if resp.ID == "" {
			resp.ID = "<absent>"
		}
		c.mu.Lock()
		c.resps = append(c.resps, &resp)
		c.cond.Broadcast()
		c.mu.Unlock()
	}
}

func (c *rawClient) fail(err error) {
	c.mu.Lock()
	c.readEr = err
	c.cond.Broadcast()
	c.mu.Unlock()
}

func frame(body string) string {
	return "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}

// write sends bytes as they are. A write error (the server is gone) is
// ignored: the assertions that follow say what was expected.
func (c *rawClient) write(s string) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, _ = io.WriteString(c.stdin, s)
}

func (c *rawClient) send(body string) { c.write(frame(body)) }

func mustJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(data)
}

// request sends a request with params (a JSON string; "" for none) and
// returns its id as JSON.
func (c *rawClient) request(method, params string) string {
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	c.mu.Unlock()
	c.requestID(id, method, params)
	return id
}

func (c *rawClient) requestID(id, method, params string) {
	body := `{"jsonrpc":"2.0","id":` + id + `,"method":` + mustJSON(method)
	if params != "" {
		body += `,"params":` + params
	}
	c.send(body + "}")
}

func (c *rawClient) notify(method, params string) {
	body := `{"jsonrpc":"2.0","method":` + mustJSON(method)
	if params != "" {
		body += `,"params":` + params
	}
	c.send(body + "}")
}

// wait returns the first response with id not yet returned.
func (c *rawClient) wait(id string) *rawResp {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	timer := time.AfterFunc(30*time.Second, func() { c.mu.Lock(); c.cond.Broadcast(); c.mu.Unlock() })
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		for _, r := range c.resps {
			if !r.used && r.ID == id {
				r.used = true
				return r
			}
		}
		if c.readEr != nil || time.Now().After(deadline) {
			c.t.Fatalf("no response with id %s (read: %v; stderr:\n%s)", id, c.readEr, c.stderr.String())
		}
		c.cond.Wait()
	}
}

func (c *rawClient) expectError(id string, code int) *rawResp {
	c.t.Helper()
	r := c.wait(id)
	if r.Error == nil || r.Error.Code != code {
		c.t.Fatalf("response %s = result %s error %+v, want error code %d", id, r.Result, r.Error, code)
	}
	return r
}

func (c *rawClient) expectResult(id string) json.RawMessage {
	c.t.Helper()
	r := c.wait(id)
	if r.Error != nil {
		c.t.Fatalf("response %s = error %+v, want a result", id, *r.Error)
	}
	return r.Result
}

// unexpected fails on every response nobody waited for: for a notification,
// the right answer is none.
func (c *rawClient) unexpected() {
	c.t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.resps {
		if !r.used {
			c.t.Errorf("unexpected response id %s: result %s error %+v", r.ID, r.Result, r.Error)
			r.used = true
		}
	}
}

// waitExit waits for the process to end and checks its exit code.
func (c *rawClient) waitExit(code int) {
	c.t.Helper()
	select {
	case <-c.exited:
	case <-time.After(20 * time.Second):
		c.t.Fatalf("the server did not exit; stderr:\n%s", c.stderr.String())
	}
	if c.code != code {
		c.t.Errorf("exit code = %d, want %d; stderr:\n%s", c.code, code, c.stderr.String())
	}
}

const abuseURI = "file:///ws/stop.md"

func (c *rawClient) initialize() {
	c.t.Helper()
	id := c.request("initialize", `{"processId":null,"rootUri":null,"capabilities":{"textDocument":{"diagnostic":{}}}}`)
	var res struct {
		Capabilities map[string]any `json:"capabilities"`
	}
	if err := json.Unmarshal(c.expectResult(id), &res); err != nil || res.Capabilities["hoverProvider"] != true {
		c.t.Fatalf("initialize result: %v %+v", err, res)
	}
	c.notify("initialized", `{}`)
}

func (c *rawClient) openDoc(u, text string) {
	c.notify("textDocument/didOpen", mustJSON(map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "markdown", "version": 1, "text": text}}))
}

// pull answers textDocument/diagnostic for u: the result ID (version first)
// and the rule codes.
func (c *rawClient) pull(u string) (string, []string) {
	c.t.Helper()
	id := c.request("textDocument/diagnostic", mustJSON(map[string]any{"textDocument": map[string]any{"uri": u}}))
	var rep struct {
		Kind     string `json:"kind"`
		ResultID string `json:"resultId"`
		Items    []struct {
			Code string `json:"code"`
		} `json:"items"`
	}
	if err := json.Unmarshal(c.expectResult(id), &rep); err != nil || rep.Kind != "full" {
		c.t.Fatalf("pull diagnostics for %s: %v %+v", u, err, rep)
	}
	var codes []string
	for _, it := range rep.Items {
		codes = append(codes, it.Code)
	}
	return rep.ResultID, codes
}

// probe is the valid request after each case: the open document's pull
// diagnostics still say what its text says.
func (c *rawClient) probe() {
	c.t.Helper()
	_, codes := c.pull(abuseURI)
	if !strings.Contains(strings.Join(codes, " "), "packet/missing-section") {
		c.t.Fatalf("probe: codes %v, want packet/missing-section", codes)
	}
	c.unexpected()
}

func hoverParams(u string, line, char int) string {
	return fmt.Sprintf(`{"textDocument":{"uri":%q},"position":{"line":%d,"character":%d}}`, u, line, char)
}

func changeParams(u string, version int, changes ...string) string {
	return fmt.Sprintf(`{"textDocument":{"uri":%q,"version":%d},"contentChanges":[%s]}`, u, version, strings.Join(changes, ","))
}

func rangeChange(l1, c1, l2, c2 int, text string) string {
	return fmt.Sprintf(`{"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}},"text":%s}`, l1, c1, l2, c2, mustJSON(text))
}

// Error codes.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeNotInitialized = -32002
	codeCancelled      = -32800
)

// abuseCase is one case. Unless raw, the server is initialized and
// abuseURI opened (version 1, missingWhy) before run. After run: when exit
// is 0 or 1 the process must end with that code (no further request
// possible); otherwise the probe must be served and no response be left
// unexpected.
type abuseCase struct {
	name string
	raw  bool
	exit int // -1: keeps serving
	run  func(t *testing.T, c *rawClient)
}

func abuseCases() []abuseCase {
	serving := -1
	var cs []abuseCase
	add := func(name string, exit int, raw bool, run func(t *testing.T, c *rawClient)) {
		cs = append(cs, abuseCase{name: name, raw: raw, exit: exit, run: run})
	}

	// ---- framing: the stream is unusable, so the server ends (code 1) ----
	for _, h := range []struct{ name, bytes string }{
		{"header/missing-content-length", "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}"},
		{"header/content-length-not-a-number", "Content-Length: abc\r\n\r\n{}"},
		{"header/content-length-negative", "Content-Length: -5\r\n\r\n{}"},
		{"header/content-length-zero", "Content-Length: 0\r\n\r\n"},
		{"header/content-length-over-1GiB", "Content-Length: 2000000000\r\n\r\n{}"},
		{"header/line-without-colon", "this is not a header\r\n\r\n{}"},
	} {
		add(h.name, 1, false, func(t *testing.T, c *rawClient) { c.write(h.bytes) })
	}
	add("frame/truncated-body", 1, false, func(t *testing.T, c *rawClient) {
		c.write("Content-Length: 100\r\n\r\n" + `{"jsonrpc":"2.0","id":1,`)
		c.stdin.Close()
	})
	add("frame/truncated-header", 1, false, func(t *testing.T, c *rawClient) {
		c.write("Content-Len")
		c.stdin.Close()
	})
	add("frame/stdin-closed-without-shutdown", 1, false, func(t *testing.T, c *rawClient) { c.stdin.Close() })

	// ---- framing the server accepts ----
	add("header/lowercase-and-content-type", serving, false, func(t *testing.T, c *rawClient) {
		body := `{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":` + hoverParams(abuseURI, 0, 3) + `}`
		c.write(fmt.Sprintf("content-length: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n%s", len(body), body))
		c.expectResult("1")
	})
	add("header/bare-newlines", serving, false, func(t *testing.T, c *rawClient) {
		body := `{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":` + hoverParams(abuseURI, 0, 3) + `}`
		c.write(fmt.Sprintf("Content-Length: %d\n\n%s", len(body), body))
		c.expectResult("1")
	})
	add("frame/two-messages-in-one-write", serving, false, func(t *testing.T, c *rawClient) {
		c.write(frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/foldingRange","params":{"textDocument":{"uri":"`+abuseURI+`"}}}`) +
			frame(`{"jsonrpc":"2.0","id":2,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"`+abuseURI+`"}}}`))
		c.expectResult("1")
		c.expectResult("2")
	})
	add("frame/one-byte-per-write", serving, false, func(t *testing.T, c *rawClient) {
		for _, b := range []byte(frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":` + hoverParams(abuseURI, 0, 3) + `}`)) {
			c.write(string([]byte{b}))
		}
		c.expectResult("1")
	})

	// ---- JSON: framed, so answered with id null, and reading goes on ----
	for _, j := range []struct {
		name, body string
		code       int
	}{
		{"json/invalid", `{"jsonrpc":"2.0","id":1,"method":`, codeParse},
		{"json/not-an-object", `"hello"`, codeParse},
		{"json/no-method-no-result", `{"jsonrpc":"2.0","id":1}`, codeInvalidRequest},
		{"json/version-1.0", `{"jsonrpc":"1.0","id":1,"method":"textDocument/hover"}`, codeInvalidRequest},
		{"json/method-not-a-string", `{"jsonrpc":"2.0","id":1,"method":5}`, codeInvalidRequest},
		{"json/id-an-object", `{"jsonrpc":"2.0","id":{},"method":"textDocument/hover"}`, codeInvalidRequest},
		{"json/batch", `[{"jsonrpc":"2.0","id":1,"method":"textDocument/hover"}]`, codeInvalidRequest},
		{"json/empty-batch", `[]`, codeInvalidRequest},
	} {
		add(j.name, serving, false, func(t *testing.T, c *rawClient) {
			c.send(j.body)
			c.expectError("null", j.code)
		})
	}

	// ---- parameters ----
	for _, p := range []struct{ name, method, params string }{
		{"params/hover-a-string", "textDocument/hover", `"file:///ws/stop.md"`},
		{"params/hover-missing", "textDocument/hover", ""},
		{"params/hover-line-a-string", "textDocument/hover", `{"textDocument":{"uri":"` + abuseURI + `"},"position":{"line":"zero","character":0}}`},
		{"params/hover-negative-line", "textDocument/hover", `{"textDocument":{"uri":"` + abuseURI + `"},"position":{"line":-1,"character":0}}`},
		{"params/codeAction-range-a-number", "textDocument/codeAction", `{"textDocument":{"uri":"` + abuseURI + `"},"range":7,"context":{"diagnostics":[]}}`},
		{"params/diagnostic-for-unopened-document", "textDocument/diagnostic", `{"textDocument":{"uri":"file:///ws/never-opened.md"}}`},
		{"params/initialize-again-wrong-types", "initialize", `{"capabilities":5}`},
	} {
		add(p.name, serving, false, func(t *testing.T, c *rawClient) {
			want := codeInvalidParams
			if p.method == "initialize" {
				want = codeInvalidRequest // already initialized: that comes first
			}
			c.expectError(c.request(p.method, p.params), want)
		})
	}
	add("params/hover-past-the-end", serving, false, func(t *testing.T, c *rawClient) {
		if r := c.expectResult(c.request("textDocument/hover", hoverParams(abuseURI, 10000, 10000))); string(r) != "null" {
			t.Errorf("hover past the end = %s, want null", r)
		}
	})
	add("params/didOpen-wrong-types", serving, false, func(t *testing.T, c *rawClient) {
		c.notify("textDocument/didOpen", `{"textDocument":{"uri":"file:///ws/bad.md","version":"one","text":5}}`)
		c.expectError(c.request("textDocument/diagnostic", `{"textDocument":{"uri":"file:///ws/bad.md"}}`), codeInvalidParams) // not opened
	})
	add("params/didChange-not-an-object", serving, false, func(t *testing.T, c *rawClient) {
		c.notify("textDocument/didChange", `[1,2,3]`)
	})
	add("params/cancel-id-an-object", serving, false, func(t *testing.T, c *rawClient) {
		c.notify("$/cancelRequest", `{"id":{"x":1}}`)
		c.notify("$/cancelRequest", `{"id":424242}`)
		c.notify("$/cancelRequest", `{"id":"never-sent"}`)
	})

	// ---- methods ----
	add("method/unknown-request", serving, false, func(t *testing.T, c *rawClient) {
		c.expectError(c.request("baton/noSuchMethod", `{}`), codeMethodNotFound)
	})
	add("method/not-utf8", serving, false, func(t *testing.T, c *rawClient) {
		// The raw bytes, not an escape: the reply must still be UTF-8.
		c.send(`{"jsonrpc":"2.0","id":"bad-utf8","method":"baton/` + "\xff\xfe" + `x","params":{}}`)
		r := c.wait(`"bad-utf8"`)
		if r.Error == nil {
			t.Fatalf("a method that is not UTF-8 got a result: %s", r.Result)
		}
	})
	add("method/unknown-dollar-request", serving, false, func(t *testing.T, c *rawClient) {
		c.expectError(c.request("$/noSuchMethod", `{}`), codeMethodNotFound)
	})
	add("method/unknown-dollar-notification", serving, false, func(t *testing.T, c *rawClient) {
		c.notify("$/noSuchNotification", `{"x":1}`)
	})
	add("method/set-trace-bad-values", serving, false, func(t *testing.T, c *rawClient) {
		c.notify("$/setTrace", `{"value":5}`)
		c.notify("$/setTrace", `{"value":"loud"}`)
		c.notify("$/setTrace", `[]`)
		c.notify("$/setTrace", `{"value":"off"}`)
	})
	add("method/unknown-notification", serving, false, func(t *testing.T, c *rawClient) {
		c.notify("workspace/didSomethingNew", `{}`)
	})
	add("method/string-id", serving, false, func(t *testing.T, c *rawClient) {
		c.requestID(`"abc"`, "textDocument/hover", hoverParams(abuseURI, 0, 3))
		c.expectResult(`"abc"`)
		c.requestID(`"7"`, "baton/noSuchMethod", `{}`)
		c.expectError(`"7"`, codeMethodNotFound)
	})
	add("method/null-id-is-a-notification", serving, false, func(t *testing.T, c *rawClient) {
		c.requestID("null", "baton/noSuchMethod", `{}`)
	})

	// ---- lifecycle ----
	add("lifecycle/request-before-initialize", serving, true, func(t *testing.T, c *rawClient) {
		c.expectError(c.request("textDocument/hover", hoverParams(abuseURI, 0, 0)), codeNotInitialized)
		c.expectError(c.request("shutdown", ""), codeNotInitialized)
		c.initialize()
		c.openDoc(abuseURI, missingWhy)
	})
	add("lifecycle/notification-before-initialize-dropped", serving, true, func(t *testing.T, c *rawClient) {
		c.openDoc(abuseURI, "# dropped\n")
		c.initialize()
		c.expectError(c.request("textDocument/diagnostic", `{"textDocument":{"uri":"`+abuseURI+`"}}`), codeInvalidParams)
		c.openDoc(abuseURI, missingWhy)
	})
	add("lifecycle/initialize-wrong-types-then-right", serving, true, func(t *testing.T, c *rawClient) {
		c.expectError(c.request("initialize", `{"capabilities":5}`), codeInvalidParams)
		c.initialize()
		c.openDoc(abuseURI, missingWhy)
	})
	add("lifecycle/initialize-twice", serving, false, func(t *testing.T, c *rawClient) {
		c.expectError(c.request("initialize", `{"capabilities":{}}`), codeInvalidRequest)
	})
	add("lifecycle/requests-after-shutdown", 0, false, func(t *testing.T, c *rawClient) {
		if r := c.expectResult(c.request("shutdown", "")); string(r) != "null" {
			t.Errorf("shutdown result = %s, want null", r)
		}
		c.expectError(c.request("textDocument/hover", hoverParams(abuseURI, 0, 3)), codeInvalidRequest)
		c.expectError(c.request("shutdown", ""), codeInvalidRequest)
		c.notify("textDocument/didChange", changeParams(abuseURI, 2, `{"text":"x"}`)) // dropped
		c.notify("exit", "")
		c.waitExit(0)
		c.unexpected()
	})
	add("lifecycle/exit-without-shutdown", 1, false, func(t *testing.T, c *rawClient) { c.notify("exit", "") })
	add("lifecycle/exit-before-initialize", 1, true, func(t *testing.T, c *rawClient) { c.notify("exit", "") })

	// ---- edits ----
	add("edit/range-past-the-end-clamped", serving, false, func(t *testing.T, c *rawClient) {
		c.notify("textDocument/didChange", changeParams(abuseURI, 2, rangeChange(1000, 0, 1000, 5, "\nappended\n")))
		if id, _ := c.pull(abuseURI); !strings.HasPrefix(id, "2.") {
			t.Errorf("resultId after a clamped edit = %s, want version 2 applied", id)
		}
	})
	add("edit/character-past-the-line-clamped", serving, false, func(t *testing.T, c *rawClient) {
		c.notify("textDocument/didChange", changeParams(abuseURI, 2, rangeChange(0, 500, 0, 900, " (more)")))
		if id, _ := c.pull(abuseURI); !strings.HasPrefix(id, "2.") {
			t.Errorf("resultId = %s, want version 2 applied", id)
		}
	})
	add("edit/end-before-start-rejected", serving, false, func(t *testing.T, c *rawClient) {
		c.notify("textDocument/didChange", changeParams(abuseURI, 2, rangeChange(4, 0, 2, 0, "x")))
		if id, _ := c.pull(abuseURI); !strings.HasPrefix(id, "1.") {
			t.Errorf("resultId = %s, want version 1 kept", id)
		}
	})
	add("edit/document-never-opened", serving, false, func(t *testing.T, c *rawClient) {
		c.notify("textDocument/didChange", changeParams("file:///ws/never.md", 2, `{"text":"# x"}`))
		c.expectError(c.request("textDocument/diagnostic", `{"textDocument":{"uri":"file:///ws/never.md"}}`), codeInvalidParams)
		c.notify("textDocument/didClose", `{"textDocument":{"uri":"file:///ws/never.md"}}`)
		c.notify("textDocument/didSave", `{"textDocument":{"uri":"file:///ws/never.md"}}`)
	})
	add("edit/version-going-backwards", serving, false, func(t *testing.T, c *rawClient) {
		c.notify("textDocument/didChange", changeParams(abuseURI, 5, rangeChange(0, 0, 0, 0, "")))
		c.notify("textDocument/didChange", changeParams(abuseURI, 3, `{"text":"# replaced\n"}`))
		c.notify("textDocument/didChange", changeParams(abuseURI, 5, `{"text":"# replaced\n"}`))
		if id, _ := c.pull(abuseURI); !strings.HasPrefix(id, "5.") {
			t.Errorf("resultId = %s, want version 5 and its text kept", id)
		}
	})
	add("edit/change-without-text", serving, false, func(t *testing.T, c *rawClient) {
		c.notify("textDocument/didChange", changeParams(abuseURI, 2, `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}`))
	})

	// ---- size ----
	add("size/64MB-notification", serving, false, func(t *testing.T, c *rawClient) {
		big := strings.Repeat("word ", 64<<20/5)
		c.openDoc("file:///ws/big.md", big)
		c.notify("textDocument/didClose", `{"textDocument":{"uri":"file:///ws/big.md"}}`)
	})
	add("size/64MB-request", serving, false, func(t *testing.T, c *rawClient) {
		pad := strings.Repeat("x", 64<<20)
		params := `{"textDocument":{"uri":"` + abuseURI + `"},"position":{"line":0,"character":3},"padding":"` + pad + `"}`
		c.expectResult(c.request("textDocument/hover", params))
	})

	// ---- concurrency ----
	add("concurrency/cancellation-storm", serving, false, func(t *testing.T, c *rawClient) {
		var ids []string
		for i := range 500 {
			method, params := "textDocument/diagnostic", `{"textDocument":{"uri":"`+abuseURI+`"}}`
			if i%2 == 1 {
				method, params = "textDocument/hover", hoverParams(abuseURI, i%12, 3)
			}
			id := c.request(method, params)
			c.notify("$/cancelRequest", `{"id":`+id+`}`)
			c.notify("$/cancelRequest", `{"id":`+id+`}`) // twice
			ids = append(ids, id)
		}
		for _, id := range ids {
			if r := c.wait(id); r.Error != nil && r.Error.Code != codeCancelled {
				t.Errorf("request %s = error %+v, want a result or %d", id, *r.Error, codeCancelled)
			}
		}
	})
	add("concurrency/pipelined-requests", serving, false, func(t *testing.T, c *rawClient) {
		methods := []string{"textDocument/hover", "textDocument/documentSymbol", "textDocument/foldingRange", "textDocument/diagnostic", "textDocument/codeLens", "textDocument/completion"}
		var ids []string
		var b strings.Builder
		for i := range 300 {
			m := methods[i%len(methods)]
			params := `{"textDocument":{"uri":"` + abuseURI + `"}}`
			if m == "textDocument/hover" || m == "textDocument/completion" {
				params = hoverParams(abuseURI, i%12, 0)
			}
			c.mu.Lock()
			c.nextID++
			id := strconv.Itoa(c.nextID)
			c.mu.Unlock()
			ids = append(ids, id)
			b.WriteString(frame(`{"jsonrpc":"2.0","id":` + id + `,"method":"` + m + `","params":` + params + `}`))
		}
		c.write(b.String())
		for _, id := range ids {
			c.expectResult(id)
		}
	})
	add("concurrency/edits-interleaved-with-requests", serving, false, func(t *testing.T, c *rawClient) {
		var ids []string
		for v := 2; v <= 100; v++ {
			c.notify("textDocument/didChange", changeParams(abuseURI, v, rangeChange(0, 0, 0, 0, "")))
			ids = append(ids, c.request("textDocument/hover", hoverParams(abuseURI, 0, 3)))
		}
		if id, _ := c.pull(abuseURI); !strings.HasPrefix(id, "100.") {
			t.Errorf("resultId = %s, want version 100", id)
		}
		for _, id := range ids {
			c.expectResult(id)
		}
	})
	return cs
}

// TestAbuse runs each case against a fresh server.
func TestAbuse(t *testing.T) {
	cases := abuseCases()
	if len(cases) < 30 {
		t.Fatalf("%d cases, want at least 30", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := startRaw(t)
			if !tc.raw {
				c.initialize()
				c.openDoc(abuseURI, missingWhy)
			}
			tc.run(t, c)
			if tc.exit >= 0 {
				c.waitExit(tc.exit)
				return
			}
			c.probe()
			// And the session ends as it should.
			c.expectResult(c.request("shutdown", ""))
			c.notify("exit", "")
			c.waitExit(0)
			c.unexpected()
		})
	}
}

// TestAbuseOneSession runs every case that keeps the server serving, one
// after another, against a single server.
func TestAbuseOneSession(t *testing.T) {
	c := startRaw(t)
	c.initialize()
	c.openDoc(abuseURI, missingWhy)
	for _, tc := range abuseCases() {
		if tc.raw || tc.exit >= 0 || strings.HasPrefix(tc.name, "edit/") || strings.HasPrefix(tc.name, "concurrency/edits") {
			continue // those need a fresh server, or a document at version 1
		}
		c.t = t
		tc.run(t, c)
		c.probe()
		if t.Failed() {
			t.Fatalf("after case %s", tc.name)
		}
	}
	c.expectResult(c.request("shutdown", ""))
	c.notify("exit", "")
	c.waitExit(0)
}
