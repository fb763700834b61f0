// Package reliability holds the suite of hostile and unlucky inputs run
// against the real baton binary: special files where a document, a
// configuration, a session or a transcript should be, sessions that are
// not ledgers, inputs that are large or shaped to be slow, and --fix racing
// an editor. Each case names what baton must do and is bounded: a case
// that hangs past its deadline or grows past its memory cap fails. The
// large inputs are generated, not stored; `make test` runs them small, and
// `make stress` (BATON_STRESS=1) at the sizes they were found at.
// docs/reliability.md lists the limits and what baton does past each.
package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

var batonBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "baton-reliability-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	batonBin = filepath.Join(dir, "baton")
	build := exec.Command("go", "build", "-o", batonBin, "../cmd/baton")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building ./cmd/baton:", err)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// stress reports whether the full sizes are asked for.
func stress() bool { return os.Getenv("BATON_STRESS") != "" }

// scale is small in make test and full under make stress.
func scale(small, full int) int {
	if stress() {
		return full
	}
	return small
}

// Bounds of every run: a hang detector and a memory cap, not speed
// assertions (the speed of these shapes is in the benchmarks).
const (
	deadline = 120 * time.Second
	memCap   = 1 << 30 // bytes of peak RSS
)

type result struct {
	stdout, stderr string
	code           int
	rss            int64 // peak, bytes
}

// run runs baton in dir with args and stdin, and fails the test if it
// outlives the deadline or its peak RSS passes the cap.
func run(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, batonBin, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("baton %s did not finish within %v (a hang)\nstderr: %s", strings.Join(args, " "), deadline, errb.String())
	}
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("baton %s: %v", strings.Join(args, " "), err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.rss = ru.Maxrss * 1024 // kilobytes on Linux
	}
	if r.rss > memCap {
		t.Fatalf("baton %s peaked at %d MiB, over the %d MiB cap", strings.Join(args, " "), r.rss>>20, memCap>>20)
	}
	return r
}

// write creates the files of a map (slash paths relative to dir).
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

func symlink(t *testing.T, target, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

func contains(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s does not say %q:\n%s", what, w, got)
		}
	}
}

// packet is a boundary packet (it has Discussion Prompts) missing Why I
// Stopped and What Happens Next: errors, the first on line 5.
const packet = "## What I Just Did\n\nUpdated the plan.\n\n## What Needs Your Review\n\nApprove option B?\n\n" +
	"## Discussion Prompts\n\n1. Because option B changes the schema, should we take it? Recommended default: B.\n\n## What I Need From You\n\nReply \"approved\".\n"

// Special files where documents are: refused with an error naming each,
// the walk goes on, nothing blocks.
func TestSpecialDocuments(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"tree/stop.md": packet})
	mkfifo(t, filepath.Join(dir, "tree", "pipe.md"))
	symlink(t, "/dev/zero", filepath.Join(dir, "tree", "zero.md"))
	symlink(t, "/dev/urandom", filepath.Join(dir, "tree", "random.md"))
	r := run(t, dir, "", "check", "tree", "tree/pipe.md", "/dev/zero")
	if r.code != 2 {
		t.Errorf("exit %d, want 2 (unreadable files)", r.code)
	}
	contains(t, "stderr", r.stderr,
		"baton: read tree/pipe.md: not a regular file: it is a named pipe",
		"baton: read tree/zero.md: not a regular file: it is a character device",
		"baton: read tree/random.md: not a regular file: it is a character device",
		"baton: read /dev/zero: not a regular file: it is a character device")
	contains(t, "stdout", r.stdout, "tree/stop.md:5:1: error packet/missing-section")
}

// .baton.yaml as a special file, a folder or a dangling link: an error
// naming it, never silence and never a hang.
func TestSpecialConfigurations(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"pipe", "zero", "folder", "dangling"} {
		write(t, dir, map[string]string{d + "/stop.md": packet})
	}
	mkfifo(t, filepath.Join(dir, "pipe", ".baton.yaml"))
	symlink(t, "/dev/zero", filepath.Join(dir, "zero", ".baton.yaml"))
	if err := os.Mkdir(filepath.Join(dir, "folder", ".baton.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "gone.yaml", filepath.Join(dir, "dangling", ".baton.yaml"))
	for d, want := range map[string]string{
		"pipe":     "pipe/.baton.yaml is a named pipe, not a configuration file",
		"zero":     "zero/.baton.yaml is a character device, not a configuration file",
		"folder":   "folder/.baton.yaml is a folder, not a configuration file",
		"dangling": "dangling/.baton.yaml is a symbolic link to nothing (it points to gone.yaml)",
	} {
		r := run(t, dir, "", "check", d+"/stop.md")
		if r.code != 2 {
			t.Errorf("%s: exit %d, want 2", d, r.code)
		}
		contains(t, d+": stderr", r.stderr, want)
	}
	// --config naming a device.
	r := run(t, dir, "", "check", "--config", "/dev/zero", "pipe/stop.md")
	contains(t, "--config /dev/zero: stderr", r.stderr, "not a regular file")
}

// handoff writes a state folder holding session id's files, and a handoff
// document naming one real path; it returns the document's path.
func handoff(t *testing.T, dir, id string, files map[string]string) string {
	t.Helper()
	sess := filepath.Join(dir, "state", "sessions", "0123456789abcdef", id)
	all := map[string]string{
		"handoff.md": "# Handoff\n\n**Goal:** finish the retry backoff rules\n\nCarried from session `" + id + "`.\n\n## Files\n- `fetch/client.go`: the retry loop\n",
	}
	for name, text := range files {
		all[filepath.ToSlash(filepath.Join(sess[len(dir)+1:], name))] = text
	}
	write(t, dir, all)
	if err := os.MkdirAll(sess, 0o755); err != nil {
		t.Fatal(err)
	}
	return sess
}

const header = `{"type":"session","version":3,"id":"k3m9x2p7q1wz","timestamp":"2026-11-28T09:12:00Z","cwd":"/home/dev/retry-service"}` + "\n"

const readEntry = `{"kind":"message","turnId":"a1","parentTurnId":null,"timestamp":"2026-11-28T09:12:09Z","role":"assistant","payload":{"text":"","content":[{"type":"toolCall","id":"call_1","name":"read","arguments":{"path":"fetch/client.go"}}]}}` + "\n"

// A session that could not be read is never a ledger: no invented-path,
// one ledger-unavailable that says why.
func TestLedgersThatCannotBeRead(t *testing.T) {
	const id = "k3m9x2p7q1wz"
	cases := map[string]func(t *testing.T, sess string){
		"every line invalid": func(t *testing.T, sess string) {
			write(t, sess, map[string]string{"current.jsonl": "not json\n{broken\n"})
		},
		"empty, no header": func(t *testing.T, sess string) { write(t, sess, map[string]string{"current.jsonl": ""}) },
		"a symlink to /dev/zero": func(t *testing.T, sess string) {
			symlink(t, "/dev/zero", filepath.Join(sess, "current.jsonl"))
		},
		"a named pipe": func(t *testing.T, sess string) { mkfifo(t, filepath.Join(sess, "current.jsonl")) },
		"a header of an unknown version, no entry baton can read": func(t *testing.T, sess string) {
			write(t, sess, map[string]string{"current.jsonl": strings.Replace(header, `"version":3`, `"version":9`, 1) +
				`{"k":"m","t":"a1","p":{"read":"fetch/client.go"}}` + "\nnot json\n"})
		},
		"the same id in two project folders": func(t *testing.T, sess string) {
			write(t, sess, map[string]string{"current.jsonl": header + readEntry})
			other := filepath.Join(filepath.Dir(filepath.Dir(sess)), "fedcba9876543210", filepath.Base(sess))
			write(t, other, map[string]string{"current.jsonl": header})
		},
	}
	says := map[string][]string{
		"a header of an unknown version, no entry baton can read": {"format version 9, which baton does not read"},
		"the same id in two project folders": {"session id in more than one project folder",
			filepath.Join("0123456789abcdef", id), filepath.Join("fedcba9876543210", id)},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			sess := handoff(t, dir, id, nil)
			setup(t, sess)
			r := run(t, dir, "", "check", "--state-dir", "state", "handoff.md")
			if strings.Contains(r.stdout, "handoff/invented-path") {
				t.Errorf("a ledger that could not be read called a path invented:\n%s", r.stdout)
			}
			contains(t, "stdout", r.stdout, append([]string{"handoff/ledger-unavailable"}, says[name]...)...)
		})
	}
	// A meta.json that is a pipe or a device does not stop the ledger.
	t.Run("meta.json a named pipe", func(t *testing.T) {
		dir := t.TempDir()
		sess := handoff(t, dir, id, map[string]string{"current.jsonl": header + readEntry})
		mkfifo(t, filepath.Join(sess, "meta.json"))
		r := run(t, dir, "", "check", "--state-dir", "state", "handoff.md")
		if strings.Contains(r.stdout, "invented-path") || strings.Contains(r.stdout, "ledger-unavailable") {
			t.Errorf("the ledger was not read past its meta.json:\n%s", r.stdout)
		}
	})
}

// Long lines and large files: each read is bounded, past a limit baton
// says so and goes on.
func TestBoundedSizes(t *testing.T) {
	t.Run("a ledger line over the bound", func(t *testing.T) {
		dir := t.TempDir()
		sess := handoff(t, dir, "k3m9x2p7q1wz", nil)
		f, err := os.Create(filepath.Join(sess, "current.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(header)
		f.WriteString(`{"kind":"message","payload":"`)
		chunk := strings.Repeat("a", 1<<20)
		for range scale(20, 1024) { // 20 MiB; 1 GiB under stress
			f.WriteString(chunk)
		}
		f.WriteString("\"}\n" + readEntry)
		f.Close()
		r := run(t, dir, "", "check", "--state-dir", "state", "handoff.md")
		if strings.Contains(r.stdout, "invented-path") || strings.Contains(r.stdout, "ledger-unavailable") {
			t.Errorf("the entries after a long line were not read:\n%s", r.stdout)
		}
	})
	t.Run("a document over 16 MiB", func(t *testing.T) {
		dir := t.TempDir()
		big := strings.Repeat("Some prose of a very large generated document.\n", (16<<20)/47+1)
		if stress() {
			big = strings.Repeat(big, 3) // 50 MB, the size a didOpen was sent at
		}
		write(t, dir, map[string]string{"big.md": big})
		// An error by default: a CI run does not pass a document it did
		// not check.
		r := run(t, dir, "", "check", "big.md")
		if r.code != 1 {
			t.Errorf("exit %d, want 1 (an error)", r.code)
		}
		contains(t, "stdout", r.stdout, "big.md:1:1: error baton/document-too-large", "it was not checked")
		// Configured to a warning, it passes, said once.
		write(t, dir, map[string]string{".baton.yaml": "rules:\n  baton/document-too-large: warning\n"})
		r = run(t, dir, "", "check", "big.md")
		if r.code != 0 || strings.Count(r.stdout, "\n") != 1 {
			t.Errorf("exit %d, want 0 (a warning), and one line:\n%s", r.code, r.stdout)
		}
		contains(t, "stdout", r.stdout, "big.md:1:1: warning baton/document-too-large", "it was not checked")
	})
	t.Run("a stop message over 16 MiB", func(t *testing.T) {
		// The hook lets it through (it blocks only on the packet and
		// stop-intent rules), never silently.
		dir := t.TempDir()
		msg, err := json.Marshal(strings.Repeat("Some prose of a very long final message.\n", (17<<20)/41))
		if err != nil {
			t.Fatal(err)
		}
		in := fmt.Sprintf(`{"session_id":"s","cwd":%q,"hook_event_name":"Stop","last_assistant_message":%s}`, dir, msg)
		for _, lint := range [][]string{nil, {"--lint"}} {
			args := append([]string{"hook", "claude-stop", "--state-dir", filepath.Join(dir, "hookstate")}, lint...)
			r := run(t, dir, in, args...)
			if r.code != 0 || r.stdout != "" {
				t.Errorf("%v: exit %d, stdout %q: want the stop let through", lint, r.code, r.stdout)
			}
			contains(t, "stderr", r.stderr, "baton: the message is 17.0 MiB, over the 16 MiB baton checks: its text was not checked")
		}
	})
	t.Run("100 MB of prose is refused, not parsed", func(t *testing.T) {
		if !stress() {
			t.Skip("make stress")
		}
		dir := t.TempDir()
		write(t, dir, map[string]string{"prose.md": strings.Repeat("prose ", 100<<20/6)})
		run(t, dir, "", "check", "prose.md")
	})
}

// Inputs shaped to be slow finish within the deadline and the cap; their
// speed is in the benchmarks (docs/performance.md).
func TestSlowShapes(t *testing.T) {
	shapes := map[string]func() string{
		"- - - … x on one line": func() string { return strings.Repeat("- ", scale(20_000, 50_000)) + "x\n" },
		"deeply nested list items": func() string {
			var b strings.Builder
			for i := range scale(20_000, 100_000) {
				b.WriteString(strings.Repeat("  ", i%50))
				b.WriteString("- item\n")
			}
			return b.String()
		},
		"backtick runs of every length, the odd ones closed": func() string { return backtickRuns(scale(1_000, 3_000)) },
		"a front matter of many props": func() string {
			var b strings.Builder
			b.WriteString("---\nprops:\n")
			for i := range scale(20_000, 300_000) { // 300,000 props is 10 MB
				fmt.Fprintf(&b, "  k%d: {type: string}\n", i)
			}
			b.WriteString("---\n\n<Probe />\n")
			return b.String()
		},
	}
	for name, gen := range shapes {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{"shape.md": gen()})
			run(t, dir, "", "check", "shape.md")
		})
	}
	t.Run("a ledger of many paths against invented ones", func(t *testing.T) {
		dir := t.TempDir()
		sess := handoff(t, dir, "k3m9x2p7q1wz", nil)
		var b strings.Builder
		b.WriteString(header)
		for i := range scale(20_000, 200_000) {
			fmt.Fprintf(&b, `{"kind":"message","turnId":"t%d","parentTurnId":%s,"role":"assistant","payload":{"text":"","content":[{"type":"toolCall","id":"c%d","name":"read","arguments":{"path":"src/pkg%d/file%d.go"}}]}}`+"\n",
				i, parent(i), i, i%500, i)
		}
		write(t, sess, map[string]string{"current.jsonl": b.String()})
		doc := "# Handoff\n\n**Goal:** finish the retry backoff rules\n\nCarried from session `k3m9x2p7q1wz`.\n\n## Files\n"
		for i := range 21 {
			doc += fmt.Sprintf("- `src/pkg%d/invented%d.go`: never read\n", i, i)
		}
		write(t, dir, map[string]string{"handoff.md": doc})
		r := run(t, dir, "", "check", "--state-dir", "state", "handoff.md")
		if n := strings.Count(r.stdout, "handoff/invented-path"); n != 21 {
			t.Errorf("%d invented paths reported, want 21:\n%s", n, r.stdout)
		}
	})
}

// Stop messages and chat files shaped to be slow, each a scan that was
// quadratic (issue 35; at 400 KB such a message outlasted the hosts'
// timeout): the stop hook judges them within its budget, and does not let
// them through unjudged.
func TestHookHostileMessages(t *testing.T) {
	const size = 1 << 20
	repeat := func(unit string) string { return strings.Repeat(unit, size/len(unit)) }
	// A boundary packet (it has Discussion Prompts) missing three sections:
	// errors, which block under --lint.
	broken := "## What I Just Did\n\nWork.\n\n## What Needs Your Review\n\nApprove option B?\n\n## Discussion Prompts\n\nShould we?\n"
	judged := func(t *testing.T, r result, blocked string) {
		t.Helper()
		if strings.Contains(r.stderr, "budget") {
			t.Errorf("let through unjudged: %s", r.stderr)
		}
		if r.code != 0 || !strings.Contains(r.stdout, blocked) {
			t.Errorf("exit %d, stdout %.200q: want a block (%s)", r.code, r.stdout, blocked)
		}
	}
	for name, msg := range map[string]string{
		"fences opening no executable block, on one line": repeat("```ts "),
		"fences with exec, on one line":                   repeat("```ts eval "),
		"backtick runs of every length":                   backtickRuns(1_180),
		"link destinations with no closing parenthesis":   repeat("[x]("),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			in, err := json.Marshal(map[string]any{"session_id": "s", "cwd": dir, "hook_event_name": "Stop", "last_assistant_message": broken + "\n" + msg + "\n"})
			if err != nil {
				t.Fatal(err)
			}
			judged(t, run(t, dir, string(in), "hook", "claude-stop", "--lint", "--state-dir", filepath.Join(dir, "hookstate")), `"decision":"block"`)
		})
	}
	gemini := func(t *testing.T, messages int, last string) {
		dir := t.TempDir()
		var chat strings.Builder
		chat.WriteString(`{"sessionId":"s","projectHash":"p","startTime":"2026-11-28T09:12:00Z"}` + "\n")
		for i := range messages {
			typ := map[bool]string{true: "user", false: "gemini"}[i%2 == 0]
			fmt.Fprintf(&chat, `{"id":"m%d","timestamp":"2026-11-28T09:12:00Z","type":%q,"content":"message %d"}`+"\n", i, typ, i)
		}
		reply, _ := json.Marshal(last)
		fmt.Fprintf(&chat, `{"id":"last","timestamp":"2026-11-28T09:12:00Z","type":"gemini","content":%s}`+"\n", reply)
		write(t, dir, map[string]string{"chat.jsonl": chat.String()})
		in, err := json.Marshal(map[string]any{"session_id": "s", "transcript_path": filepath.Join(dir, "chat.jsonl"), "cwd": dir,
			"hook_event_name": "AfterAgent", "prompt": "Go on.", "prompt_response": last, "stop_hook_active": false})
		if err != nil {
			t.Fatal(err)
		}
		judged(t, run(t, dir, string(in), "hook", "gemini-stop", "--lint", "--state-dir", filepath.Join(dir, "hookstate")), `"decision":"deny"`)
	}
	t.Run("a Gemini CLI chat file of many messages", func(t *testing.T) { gemini(t, scale(60_000, 200_000), broken) })
	t.Run("unclosed HTML comments in Gemini CLI's prompt_response", func(t *testing.T) { gemini(t, 10, broken+"\n"+repeat("<!-- x ")) })
}

func parent(i int) string {
	if i == 0 {
		return "null"
	}
	return fmt.Sprintf(`"t%d"`, i-1)
}

// --fix never overwrites what it did not read, nor a read-only file, nor
// a file outside the walked folder through a link.
func TestFixDoesNotLoseData(t *testing.T) {
	const bad = "## What I Just Did\n\nWork.\n\n### Why I Stopped\n\nDone.\n\n## What Happens Next\n\nNothing.\n"
	t.Run("a read-only file", func(t *testing.T) {
		// Root may write anything; --fix goes by the mode bits, as an
		// editor does, so this holds for root too.
		dir := t.TempDir()
		write(t, dir, map[string]string{"ro.md": bad})
		if err := os.Chmod(filepath.Join(dir, "ro.md"), 0o444); err != nil {
			t.Fatal(err)
		}
		r := run(t, dir, "", "check", "--fix", "ro.md")
		contains(t, "stderr", r.stderr, "read-only (mode 0444): not written")
		if b, _ := os.ReadFile(filepath.Join(dir, "ro.md")); string(b) != bad {
			t.Error("the read-only file was changed")
		}
	})
	t.Run("a link out of the walked folder", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{"elsewhere/stop.md": bad, "docs/keep.md": "text\n"})
		symlink(t, "../elsewhere/stop.md", filepath.Join(dir, "docs", "linked.md"))
		r := run(t, dir, "", "check", "--fix", "docs")
		contains(t, "stderr", r.stderr, "not writing the fixes of docs/linked.md")
		if b, _ := os.ReadFile(filepath.Join(dir, "elsewhere", "stop.md")); string(b) != bad {
			t.Error("the file outside the folder was changed")
		}
	})
}

// The Stop hook fails open on a transcript it cannot read, and reads a
// large one from its end.
func TestHookTranscripts(t *testing.T) {
	dir := t.TempDir()
	mkfifo(t, filepath.Join(dir, "pipe.jsonl"))
	symlink(t, "/dev/zero", filepath.Join(dir, "zero.jsonl"))
	for _, tr := range []string{"pipe.jsonl", "zero.jsonl"} {
		in := fmt.Sprintf(`{"session_id":"s","transcript_path":%q,"cwd":%q,"hook_event_name":"Stop"}`, filepath.Join(dir, tr), dir)
		r := run(t, dir, in, "hook", "claude-stop", "--lint", "--state-dir", filepath.Join(dir, "hookstate"))
		if r.code != 0 || r.stdout != "" {
			t.Errorf("%s: exit %d, stdout %q; want the stop let through", tr, r.code, r.stdout)
		}
		contains(t, tr+": stderr", r.stderr, "not a regular file", "letting the stop through")
	}
	big := filepath.Join(dir, "big.jsonl")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	line := `{"type":"user","message":{"role":"user","content":"` + strings.Repeat("tool output ", 80) + `"}}` + "\n"
	for written := 0; written < scale(32<<20, 1<<30); written += len(line) {
		f.WriteString(line)
	}
	f.WriteString(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"## What I Just Did\n\nWork.\n\n## What Needs Your Review\n\nApprove option B?\n\n## Discussion Prompts\n\nShould we?\n"}]}}` + "\n")
	f.Close()
	in := fmt.Sprintf(`{"session_id":"s","transcript_path":%q,"cwd":%q,"hook_event_name":"Stop"}`, big, dir)
	r := run(t, dir, in, "hook", "claude-stop", "--lint", "--state-dir", filepath.Join(dir, "hookstate"))
	if r.code != 0 || !strings.Contains(r.stdout, `"decision":"block"`) {
		t.Errorf("the last message of a large transcript was not judged: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
