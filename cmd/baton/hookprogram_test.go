package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookProgram: hook install writes `baton` when one is on PATH, else
// this baton's absolute path, saying so; when this program cannot be
// named in a hook, it writes `baton` and warns that the host will not
// find it.
func TestHookProgram(t *testing.T) {
	onPath := func(string) (string, error) { return "/usr/local/bin/baton", nil }
	notOnPath := func(string) (string, error) { return "", errors.New("executable file not found in $PATH") }
	exe := func(p string) func() (string, error) { return func() (string, error) { return p, nil } }
	for _, tt := range []struct {
		name                string
		look                func(string) (string, error)
		exe                 func() (string, error)
		program, note, warn string
	}{
		{"on PATH", onPath, exe("/opt/baton/baton"), "", "", ""},
		{"not on PATH", notOnPath, exe("/opt/baton/baton"), "/opt/baton/baton", "no baton on PATH: the hooks run this baton by its absolute path, /opt/baton/baton", ""},
		{"named otherwise", notOnPath, exe("/opt/baton/baton-dev"), "", "", "this program is named baton-dev, not baton"},
		{"a space in its path", notOnPath, exe("/opt/my tools/baton"), "", "", "holds a space or a quote"},
		{"go run", notOnPath, exe("/tmp/go-build123/b001/exe/baton"), "", "", "go run's temporary build"},
		{"no path", notOnPath, func() (string, error) { return "", errors.New("not supported") }, "", "", "own path is unknown"},
	} {
		program, note, warn := hookProgram(tt.look, tt.exe)
		if program != tt.program || !strings.HasPrefix(note, tt.note) || (tt.note == "") != (note == "") || !strings.Contains(warn, tt.warn) || (tt.warn == "") != (warn == "") {
			t.Errorf("%s: program %q, note %q, warn %q", tt.name, program, note, warn)
		}
	}
}

// TestHookInstallWithoutBatonOnPath: the settings written run this baton
// by its absolute path, install says so, and uninstall recognises and
// removes them, then the .claude/ folder install made.
func TestHookInstallWithoutBatonOnPath(t *testing.T) {
	project := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", "") // the record of what install made goes in $HOME too
	if err := os.Mkdir(filepath.Join(project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	oldLook, oldExe := lookPath, executable
	t.Cleanup(func() { lookPath, executable = oldLook, oldExe })
	lookPath = func(string) (string, error) { return "", errors.New("not found") }
	executable = func() (string, error) { return "/opt/baton/bin/baton", nil }

	code, stdout, stderr := runBaton(t, project, "", "hook", "install", "--host", "claude")
	if code != exitOK {
		t.Fatalf("install: exit %d\n%s\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(project, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"command": "/opt/baton/bin/baton hook claude-stop --lint"`) {
		t.Errorf("settings:\n%s", b)
	}
	if !strings.Contains(stdout, "baton: no baton on PATH: the hooks run this baton by its absolute path, /opt/baton/bin/baton") {
		t.Errorf("install did not say what it wrote:\n%s", stdout)
	}
	// Hooks installed before as `baton`, with none on PATH now: said.
	lookPath = func(string) (string, error) { return "/usr/bin/baton", nil }
	other := t.TempDir()
	if err := os.Mkdir(filepath.Join(other, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runBaton(t, other, "", "hook", "install", "--host", "claude"); code != exitOK {
		t.Fatalf("install with baton on PATH: exit %d\n%s\n%s", code, stdout, stderr)
	}
	lookPath = func(string) (string, error) { return "", errors.New("not found") }
	_, _, stderr = runBaton(t, other, "", "hook", "install", "--host", "claude")
	if !strings.Contains(stderr, "baton: warning: .claude/settings.json runs `baton hook claude-stop --lint`, and no baton is on PATH") {
		t.Errorf("hooks of a bare baton, none on PATH: no warning:\n%s", stderr)
	}

	code, stdout, stderr = runBaton(t, project, "", "hook", "uninstall", "--host", "claude")
	if code != exitOK || !strings.Contains(stdout, "removed from .claude/settings.json: Stop: /opt/baton/bin/baton hook claude-stop --lint") {
		t.Fatalf("uninstall: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "baton: removed the folder .claude/: install made it, and nothing else is in it") {
		t.Errorf("uninstall did not say it removed .claude/:\n%s", stdout)
	}
	if _, err := os.Stat(filepath.Join(project, ".claude")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf(".claude/ left behind: %v", err)
	}
	if _, err := os.Stat(project); err != nil {
		t.Errorf("the project itself: %v", err)
	}
}

// TestHookUninstallKeepsAFolderInUse: a settings folder holding anything
// else stays; a Copilot hooks file's two folders (.github/hooks) go when
// both are empty, and .github/ stays when it holds workflows.
func TestHookUninstallKeepsAFolderInUse(t *testing.T) {
	project := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", "") // the record of what install made goes in $HOME too
	if err := os.Mkdir(filepath.Join(project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	oldLook := lookPath
	t.Cleanup(func() { lookPath = oldLook })
	lookPath = func(string) (string, error) { return "/usr/bin/baton", nil }

	for _, step := range [][]string{{"install", "--host", "claude"}, {"install", "--host", "copilot"}} {
		if code, stdout, stderr := runBaton(t, project, "", append([]string{"hook"}, step...)...); code != exitOK {
			t.Fatalf("%v: exit %d\n%s\n%s", step, code, stdout, stderr)
		}
	}
	mine := filepath.Join(project, ".claude", "agents.md")
	if err := os.WriteFile(mine, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runBaton(t, project, "", "hook", "uninstall", "--host", "claude")
	if code != exitOK || strings.Contains(stdout, "removed the folder") {
		t.Errorf("uninstall claude: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("the user's file in .claude/: %v", err)
	}
	code, stdout, stderr = runBaton(t, project, "", "hook", "uninstall", "--host", "copilot")
	if code != exitOK || !strings.Contains(stdout, "removed the folder .github/hooks/") || !strings.Contains(stdout, "removed the folder .github/:") {
		t.Errorf("uninstall copilot: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(project, ".github")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf(".github/ left behind: %v", err)
	}
}
