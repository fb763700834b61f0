package main

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
	"testing"
	"time"

	"github.com/baton-md/baton/internal/corpus"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary act as the baton command inside the
// scripts: testscript installs it in $PATH as "baton".
func TestMain(m *testing.M) {
	// Under -race every process sleeps a second before exiting, to flush
	// reports; the scripts start dozens. testscript passes GORACE on to them.
	if os.Getenv("GORACE") == "" {
		os.Setenv("GORACE", "atexit_sleep_ms=10")
	}
	testscript.Main(m, map[string]func(){
		"baton": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the command's end-to-end scripts, testdata/script/*.txtar.
//
// Besides the built-in commands and conditions, the scripts can use the
// condition [root] (running as the superuser) and the commands:
//
//	exitcode N PROG [ARGS...]   run PROG like exec; fail unless it exits with status N
//	lspframe IN OUT             frame each JSON message of IN (one a line) as LSP
//	                            base-protocol messages (Content-Length, CRLF) into OUT
func TestScripts(t *testing.T) {
	// CI has the corpus, so only this check keeps a script that reads it
	// without skipping from failing in a clone of the project alone.
	scripts, err := filepath.Glob(filepath.Join("testdata", "script", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range scripts {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("$CORPUS")) && !bytes.Contains(b, []byte("\n[!corpus] skip ")) {
			t.Errorf("%s reads $CORPUS without a line `[!corpus] skip 'why'`", name)
		}
	}
	testscript.Run(t, testscript.Params{
		Dir:                filepath.Join("testdata", "script"),
		RequireUniqueNames: true,
		// $CORPUS is the shared corpus of real documents beside the
		// repository: scripts copy from it, the project commits none. A
		// clone of the project alone lacks it: a script that reads it
		// starts with `[!corpus] skip 'the shared corpus is not beside
		// this clone ($CORPUS); CI has it'`.
		Setup: func(e *testscript.Env) error {
			root, _ := corpus.Root()
			root, err := filepath.Abs(root)
			if err != nil {
				return err
			}
			e.Setenv("CORPUS", root)
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "root": // file permissions do not stop the superuser
				return os.Geteuid() == 0, nil
			case "corpus": // the shared corpus is beside the repository
				_, ok := corpus.Root()
				return ok, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exitcode": cmdExitCode,
			"lspframe": cmdLSPFrame,
		},
	})
}

// cmdExitCode runs a program like exec and checks its exit status, which
// `exec` and `! exec` cannot tell apart beyond zero and non-zero. The
// program's standard output and error are kept for stdout and stderr.
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exitcode")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: bad status %q: %v", args[0], err)
	}
	got := 0
	var exitErr *exec.ExitError
	switch err := ts.Exec(args[1], args[2:]...); {
	case err == nil:
	case errors.As(err, &exitErr):
		got = exitErr.ExitCode()
	default:
		ts.Fatalf("exitcode: running %s: %v", args[1], err)
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// cmdLSPFrame writes the messages of a file, one JSON value a line (blank
// lines and lines starting with # skipped), as LSP base-protocol messages:
// a Content-Length header with the body's exact byte count, CRLF line ends,
// then the body.
func cmdLSPFrame(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! lspframe")
	}
	if len(args) != 2 {
		ts.Fatalf("usage: lspframe IN OUT")
	}
	framed, err := frameLSP(ts.ReadFile(args[0]))
	if err != nil {
		ts.Fatalf("lspframe %s: %v", args[0], err)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), framed, 0o666))
}

func frameLSP(messages string) ([]byte, error) {
	var out bytes.Buffer
	sc := bufio.NewScanner(strings.NewReader(messages))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !json.Valid([]byte(line)) {
			return nil, fmt.Errorf("line %d is not valid JSON: %s", n, line)
		}
		fmt.Fprintf(&out, "Content-Length: %d\r\n\r\n%s", len(line), line)
	}
	return out.Bytes(), sc.Err()
}

func TestFrameLSP(t *testing.T) {
	got, err := frameLSP("# a comment\n{\"a\":\"é\"}\n\n[1]\n")
	if err != nil {
		t.Fatal(err)
	}
	// "é" is two bytes: the count is of bytes, not characters.
	want := "Content-Length: 10\r\n\r\n{\"a\":\"é\"}Content-Length: 3\r\n\r\n[1]"
	if string(got) != want {
		t.Errorf("frameLSP = %q, want %q", got, want)
	}
	if _, err := frameLSP("{not json}\n"); err == nil {
		t.Error("frameLSP accepted a line that is not JSON")
	}
}

// TestServeAnswersRequestsPendingAtShutdown plays a client that follows the
// protocol: it sends a diagnostic request and then shutdown, waits for the
// shutdown response, and only then sends exit. Every request the client
// sent must be answered before the server exits. The server may answer
// shutdown before the diagnostic request (JSON-RPC allows any order), so a
// reply still pending when exit arrives must not be dropped; the session is
// repeated because whether it is still pending is a matter of timing.
func TestServeAnswersRequestsPendingAtShutdown(t *testing.T) {
	const sessions = 20
	lost := 0
	for range sessions {
		ids, code := serveSession(t)
		if code != 0 {
			t.Fatalf("baton serve exited with status %d after shutdown and exit, want 0", code)
		}
		if !ids["1"] || !ids["3"] {
			t.Fatalf("initialize or shutdown unanswered; answered ids: %v", ids)
		}
		if !ids["2"] {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("in %d of %d sessions the textDocument/diagnostic request (id 2), sent before shutdown, was never answered: the server exited with it pending", lost, sessions)
	}
}

// serveSession runs one session against run("serve") over pipes and returns
// the ids of the responses the client received, and the exit status.
func serveSession(t *testing.T) (answered map[string]bool, code int) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	defer inW.Close() // ends the session if the test fails midway
	exited := make(chan int, 1)
	go func() {
		c := run([]string{"serve"}, inR, outW, os.Stderr)
		outW.Close()
		exited <- c
	}()
	responses := make(chan string, 64) // ids of responses, in arrival order
	go func() {
		defer close(responses)
		r := bufio.NewReader(outR)
		for {
			body, err := readLSP(r)
			if err != nil {
				return
			}
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(body, &m) == nil && m.Method == "" && m.ID != nil {
				responses <- string(m.ID)
			}
		}
	}()
	defer outR.Close()

	answered = map[string]bool{}
	timeout := time.After(10 * time.Second)
	waitFor := func(id string) {
		t.Helper()
		for !answered[id] {
			select {
			case got, ok := <-responses:
				if !ok {
					t.Fatalf("the server closed its output before answering id %s", id)
				}
				answered[got] = true
			case <-timeout:
				t.Fatalf("timed out waiting for the response to id %s", id)
			}
		}
	}
	send := func(msg string) {
		t.Helper()
		if _, err := fmt.Fprintf(inW, "Content-Length: %d\r\n\r\n%s", len(msg), msg); err != nil {
			t.Fatalf("sending %s: %v", msg, err)
		}
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{"textDocument":{"diagnostic":{}}}}}`)
	waitFor("1")
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	// A long document (many packets, each missing a section) keeps the
	// diagnostic request busy long enough for shutdown to overtake it.
	text, err := json.Marshal(strings.Repeat("## What I Just Did\n\nWork.\n\n## What Needs Your Review\n\nThe plan.\n\n## What Happens Next\n\nI start.\n\n## What I Need From You\n\nReply.\n\n", 100))
	if err != nil {
		t.Fatal(err)
	}
	send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/bad.md","languageId":"markdown","version":1,"text":` + string(text) + `}}}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"file:///w/bad.md"}}}`)
	send(`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`)
	waitFor("3")
	send(`{"jsonrpc":"2.0","method":"exit"}`)
	inW.Close()
	for {
		select {
		case got, ok := <-responses:
			if !ok {
				select {
				case code = <-exited:
					return answered, code
				case <-timeout:
					t.Fatal("timed out waiting for baton serve to return")
				}
			}
			answered[got] = true
		case <-timeout:
			t.Fatal("timed out waiting for baton serve to close its output")
		}
	}
}

// readLSP reads one Content-Length framed message.
func readLSP(r *bufio.Reader) ([]byte, error) {
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			if n, err = strconv.Atoi(v); err != nil {
				return nil, fmt.Errorf("bad header %q", line)
			}
		}
	}
	if n < 0 {
		return nil, errors.New("no Content-Length header")
	}
	body := make([]byte, n)
	_, err := io.ReadFull(r, body)
	return body, err
}
