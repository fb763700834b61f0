package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/agenthost/setup"
)

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
	oldLook, oldExe := setup.LookPath, setup.Executable
	t.Cleanup(func() { setup.LookPath, setup.Executable = oldLook, oldExe })
	setup.LookPath = func(string) (string, error) { return "", errors.New("not found") }
	setup.Executable = func() (string, error) { return "/opt/baton/bin/baton", nil }

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
	setup.LookPath = func(string) (string, error) { return "/usr/bin/baton", nil }
	other := t.TempDir()
	if err := os.Mkdir(filepath.Join(other, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runBaton(t, other, "", "hook", "install", "--host", "claude"); code != exitOK {
		t.Fatalf("install with baton on PATH: exit %d\n%s\n%s", code, stdout, stderr)
	}
	setup.LookPath = func(string) (string, error) { return "", errors.New("not found") }
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
	oldLook := setup.LookPath
	t.Cleanup(func() { setup.LookPath = oldLook })
	setup.LookPath = func(string) (string, error) { return "/usr/bin/baton", nil }

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
