// Package hooktest is what the tests of the host packages share to run a
// host's hooks as the command line runs them (Run), to hold a host's stop
// hook to the contract every host's keeps (Case, Contract), and to build
// the projects and messages the stop policy judges (Project). Only tests
// import it.
package hooktest

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/baton-md/baton/agenthost"
	"github.com/baton-md/baton/agenthost/hook"
)

// Run runs the hook args names with its flags (args[0] is the hook, as
// after `baton hook`) on input, as the command line does; its standard
// output and error.
func Run(t testing.TB, args []string, input []byte) (stdout, stderr string) {
	t.Helper()
	fl := flag.NewFlagSet("hook "+args[0], flag.ContinueOnError)
	o := hook.Flags(fl)
	if err := fl.Parse(args[1:]); err != nil || fl.NArg() > 0 {
		t.Fatalf("hook %v: %v", args, err)
	}
	var out, errb bytes.Buffer
	if !hook.Run(args, *o, bytes.NewReader(input), &out, &errb) {
		t.Fatalf("no hook %s", args[0])
	}
	return out.String(), errb.String()
}

// JSON is v as JSON.
func JSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// JSONL joins values as lines of JSON.
func JSONL(vs ...any) string {
	var b strings.Builder
	for _, v := range vs {
		b.Write(JSON(v))
		b.WriteByte('\n')
	}
	return b.String()
}

// Strict decodes a JSON object that may hold only the fields of v.
func Strict(t testing.TB, out []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("reply %q does not parse under the host's schema: %v", out, err)
	}
	if dec.More() {
		t.Fatalf("reply %q holds more than one JSON value", out)
	}
}

// The messages the stop policy judges: a packet that says it will proceed
// while it asks for review (blocked under --lint), and the same packet
// consistent.
const (
	ProceedMsg    = "## What I Just Did\n\nAdded the retry cap.\n\n## Why I Stopped\n\nThe cap changes caller behaviour.\n\n## What Needs Your Review\n\n- Do you approve a 60 second cap?\n\n## What Happens Next\n\nI'll proceed with the callers tonight.\n\n## What I Need From You\n\nReply \"approve\" or \"no cap\".\n"
	ConsistentMsg = "## What I Just Did\n\nAdded the retry cap.\n\n## Why I Stopped\n\nThe cap changes caller behaviour.\n\n## What Needs Your Review\n\n- Do you approve a 60 second cap?\n\n## What Happens Next\n\nOn approval, I will update the callers.\n\n## What I Need From You\n\nReply \"approve\" or \"no cap\".\n"
)

// GitRepo is a Git work tree with one commit; the test is skipped
// without git.
func GitRepo(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"config", "user.email", "t@example.com"}, {"config", "user.name", "t"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a\n"), 0o644)
	exec.Command("git", "-C", repo, "add", ".").Run()
	if out, err := exec.Command("git", "-C", repo, "commit", "-qm", "a").CombinedOutput(); err != nil {
		t.Fatalf("commit: %v %s", err, out)
	}
	return repo
}

// Case is one host's stop hook contract, as its documentation gives it:
// what the host sends, what it writes, and what it accepts back.
type Case struct {
	Host *agenthost.Host
	// Input is the host's stop input for a message (msg "" for none in
	// the payload) with the transcript at path ("" for none); active says
	// the stop follows a block, the way this host says it.
	Input func(cwd, session, msg, path string, active bool) []byte
	// Transcript is a session file of this host's format whose last
	// assistant message is msg.
	Transcript func(msg string) string
	// PayloadMessage: the host sends the last message in its input.
	PayloadMessage bool
	// Check parses a reply under the host's schema: the reason of a
	// block, or "" for a reply that lets the stop through.
	Check func(t testing.TB, out []byte) string
}

// Stop is the host's stop hook's name.
func (c Case) Stop() string { return c.Host.ID + "-stop" }

// Fire runs the host's stop hook once on a transcript whose last message
// is msg: the reply's reason ("" for a pass) and standard error.
func (c Case) Fire(t testing.TB, cwd, session, msg, state string, active bool, extra ...string) (reason, stderr string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(path, []byte(c.Transcript(msg)), 0o644); err != nil {
		t.Fatal(err)
	}
	payload := ""
	if c.PayloadMessage {
		payload = msg
	}
	out, errs := Run(t, append([]string{c.Stop(), "--state-dir", state}, extra...), c.Input(cwd, session, payload, path, active))
	return c.Check(t, []byte(out)), errs
}

// lockedBuffer is a buffer a judgement let go may still write to while
// the test reads it.
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
