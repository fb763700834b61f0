package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runBaton runs baton in-process with args and stdin, from dir.
func runBaton(t *testing.T, dir, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if dir != "" {
		t.Chdir(dir)
	}
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// mannersNearMiss has one safe fix: its near-miss stop-intent marker.
const mannersNearMiss = "Waiting for the CI run of task 4.\n<!--   SPECREW-STOP-INTENT:intermediate   -->\n"

const mannersPacket = "Done.\n\n### Why I Stopped\nThe work is done.\n\n## What I Did\n- wrote it\n"

// TestFlagsAfterPaths: every command that takes paths reads its flags
// wherever they stand, as ruff and golangci-lint do; -- ends them.
func TestFlagsAfterPaths(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "stop.md"), []byte(mannersPacket), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wait.md"), []byte(mannersNearMiss), 0o644); err != nil {
		t.Fatal(err)
	}
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples", "clio-state"))
	if err != nil {
		t.Fatal(err)
	}
	session := filepath.Join(examples, "sessions", "7f29f1fee5e21210", "k3m9x2p7q1wz")

	isJSON := func(t *testing.T, s string) {
		t.Helper()
		if !json.Valid([]byte(s)) {
			t.Errorf("stdout is not JSON:\n%s", s)
		}
	}
	for _, tt := range []struct {
		name string
		args []string
		code int
		want func(t *testing.T, stdout string)
	}{
		{"check FILE --format json", []string{"check", "stop.md", "--format", "json"}, exitOK, isJSON},
		{"check FILE --format=json", []string{"check", "stop.md", "--format=json"}, exitOK, isJSON},
		{"check between paths", []string{"check", "stop.md", "--format", "json", "stop.md"}, exitOK, isJSON},
		{"check --diff after the path", []string{"check", "wait.md", "--diff"}, exitFindings, func(t *testing.T, s string) {
			if !strings.Contains(s, "+<!-- SPECREW-STOP-INTENT: intermediate -->") {
				t.Errorf("no diff:\n%s", s)
			}
		}},
		{"classify FILE --in-flight true", []string{"classify", "stop.md", "--in-flight", "false"}, exitOK, isJSON},
		{"ledger FOLDER --json", []string{"ledger", session, "--json"}, exitOK, isJSON},
		{"ledger ID --state-dir DIR --json", []string{"ledger", "k3m9x2p7q1wz", "--state-dir", examples, "--json"}, exitOK, isJSON},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runBaton(t, dir, "", tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			if strings.Contains(stderr, "no such file") {
				t.Errorf("a flag was read as a path:\n%s", stderr)
			}
			tt.want(t, stdout)
		})
	}

	// After --, an argument that starts with a dash is a path.
	if err := os.WriteFile(filepath.Join(dir, "--format"), []byte(mannersPacket), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runBaton(t, dir, "", "check", "--format", "json", "--", "--format")
	if code != exitOK || !json.Valid([]byte(stdout)) || !strings.Contains(stdout, `"path": "--format"`) {
		t.Errorf("check -- --format: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// usageErrorForm is baton's one form of an error: "baton: MESSAGE" on the
// first line; a usage error then gives the usage line.
var usageErrorForm = regexp.MustCompile(`\Abaton: \S.*\n`)

// TestOneErrorForm: every command's usage errors read "baton: MESSAGE",
// and none repeats itself.
func TestOneErrorForm(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"check", "--format", "xml"},
		{"check", "--color", "sometimes"},
		{"check", "--fix", "--diff"},
		{"check", "--bogus"},
		{"check", "x.md", "--format"},
		{"audit"},
		{"audit", "--format", "xml", "x"},
		{"audit", "--host", "vim", "x"},
		{"audit", "--since", "-1h", "x"},
		{"classify", "a.md", "b.md"},
		{"classify", "--in-flight", "maybe"},
		{"ledger"},
		{"ledger", "a", "b"},
		{"ledger", "--state-dir", dir, "nosuchsession"},
		{"explain", "a", "b"},
		{"explain", "missing-section"},
		{"completion"},
		{"completion", "tcsh"},
		{"config"},
		{"config", "scheme"},
		{"man", "x"},
		{"version", "x"},
		{"serve", "x"},
		{"serve", "--bogus"},
		{"hook"},
		{"hook", "frobnicate"},
		{"hook", "install", "--bogus"},
		{"hook", "install", "x"},
		{"hook", "claude-stop", "x"},
		{"hook", "claude-stop", "--max-blocks", "x"},
		{"hook", "status", "--bogus"},
		{"help", "frobnicate"},
		{"mcp", "--bogus"},
		{"mcp", "extra"},
		{"mcp", "install", "--bogus"},
		{"mcp", "install"},
		{"mcp", "status", "--bogus"},
	} {
		code, _, stderr := runBaton(t, dir, "", args...)
		if code != exitUsage {
			t.Errorf("baton %s: exit %d, want %d", strings.Join(args, " "), code, exitUsage)
		}
		if !usageErrorForm.MatchString(stderr) {
			t.Errorf("baton %s: stderr is not in the form baton: MESSAGE:\n%s", strings.Join(args, " "), stderr)
		}
		if regexp.MustCompile(`(?m)^baton [a-z-]+( [a-z-]+)?: `).MatchString(stderr) {
			t.Errorf("baton %s: an error in the form baton COMMAND: MESSAGE:\n%s", strings.Join(args, " "), stderr)
		}
	}
}

// TestLedgerManners: without arguments, baton's own usage (not the flag
// package's); a session not found said once, with where it was looked
// for.
func TestLedgerManners(t *testing.T) {
	dir := t.TempDir()
	_, _, stderr := runBaton(t, dir, "", "ledger")
	if want := "baton: name one session: its ID, or its folder\nusage: baton ledger [flags] ID|SESSION_FOLDER\n"; !strings.HasPrefix(stderr, want) {
		t.Errorf("baton ledger:\n%s\nwant it to start:\n%s", stderr, want)
	}
	if strings.Contains(stderr, "-json\n") || strings.Contains(stderr, "\tprint JSON") {
		t.Errorf("baton ledger printed the flag package's defaults:\n%s", stderr)
	}
	_, _, stderr = runBaton(t, dir, "", "ledger", "--state-dir", dir, "nosuch")
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	if len(lines) != 1 || strings.Count(stderr, "nosuch") != 3 || strings.Count(stderr, "not found")+strings.Count(stderr, "no session") != 1 {
		t.Errorf("session not found, said more than once:\n%s", stderr)
	}
	if !strings.HasPrefix(stderr, "baton: no session nosuch (looked in "+filepath.Join(dir, "sessions", "*", "nosuch")) {
		t.Errorf("session not found:\n%s", stderr)
	}
}

// TestExplainDidYouMean: a rule named without its prefix, or misspelt,
// gets the rules it most likely meant.
func TestExplainDidYouMean(t *testing.T) {
	for _, tt := range []struct{ arg, want string }{
		{"missing-section", `baton: no rule "missing-section": did you mean packet/missing-section?`},
		{"duplicate-section", `baton: no rule "duplicate-section": did you mean handoff/duplicate-section or packet/duplicate-section?`},
		{"packet/mising-section", `baton: no rule "packet/mising-section": did you mean packet/missing-section?`},
		{"goal-shrt", `baton: no rule "goal-shrt": did you mean handoff/goal-short?`},
		{"Packet/Missing-Section", `baton: no rule "Packet/Missing-Section": did you mean packet/missing-section?`},
		{"frobnicate", "baton: no rule \"frobnicate\"; `baton explain` lists them"},
	} {
		code, _, stderr := runBaton(t, "", "", "explain", tt.arg)
		if code != exitUsage || stderr != tt.want+"\n" {
			t.Errorf("baton explain %s: exit %d\n%s\nwant:\n%s", tt.arg, code, stderr, tt.want)
		}
	}
}

// TestVersionFlags: --version and -v are baton version.
func TestVersionFlags(t *testing.T) {
	_, want, _ := runBaton(t, "", "", "version")
	for _, a := range []string{"--version", "-v", "-version"} {
		code, got, stderr := runBaton(t, "", "", a)
		if code != exitOK || got != want || stderr != "" {
			t.Errorf("baton %s: exit %d\n%s\n%s\nwant:\n%s", a, code, got, stderr, want)
		}
	}
}

// TestClassifyEmpty: nothing to classify is an error, not a classification
// claiming a marker of the assistant's.
func TestClassifyEmpty(t *testing.T) {
	for _, in := range []string{"", "\n", "  \n\t\n"} {
		code, stdout, stderr := runBaton(t, t.TempDir(), in, "classify")
		if code != exitUsage || stdout != "" || stderr != "baton: <stdin> is empty: classify needs a stop message\n" {
			t.Errorf("classify of %q: exit %d\n%s\n%s", in, code, stdout, stderr)
		}
	}
}
