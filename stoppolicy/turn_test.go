package stoppolicy

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo is a Git work tree with one commit.
func gitRepo(t *testing.T) string {
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
	write(t, repo, "a.go", "package a\n")
	exec.Command("git", "-C", repo, "add", ".").Run()
	if out, err := exec.Command("git", "-C", repo, "commit", "-qm", "a").CombinedOutput(); err != nil {
		t.Fatalf("commit: %v %s", err, out)
	}
	return repo
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The hosts' own settings, which `baton hook install` writes, are no
// material work: an uncommitted .codex/hooks.json or .gemini/settings.json
// owes no packet; a source file does.
func TestToolManagedPathsAreNotMaterial(t *testing.T) {
	repo := gitRepo(t)
	o := Options{RequirePacket: true, StateDir: t.TempDir()}
	write(t, repo, ".codex/hooks.json", `{"hooks": {}}`)
	write(t, repo, ".gemini/settings.json", `{"hooks": {}}`)
	write(t, repo, ".github/hooks/baton.json", `{"version": 1}`)
	if out := Evaluate(Stop{Host: "codex", SessionID: "m", Cwd: repo, Message: "Installed."}, o); out.Reason != "" {
		t.Fatalf("the hosts' settings counted as material work: %s", out.Reason)
	}
	write(t, repo, "a.go", "package a // changed\n")
	if out := Evaluate(Stop{Host: "codex", SessionID: "m", Cwd: repo, Message: "Changed a.go."}, o); !strings.Contains(out.Reason, "1 changed file(s)") {
		t.Fatalf("a source file: %+v", out)
	}
}
