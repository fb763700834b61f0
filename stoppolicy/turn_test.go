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
	ManageFolders(".codex", ".gemini") // as the hosts' list does (agenthost/hosts)
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

// The duplicate check is keyed by turn: the same stop in the next turn (a
// prompt hook ran between, the host names another turn, or the transcript
// has a new person message) is judged again, though it comes within the
// window.
func TestDuplicateIsPerTurn(t *testing.T) {
	cwd := t.TempDir()
	o := Options{Lint: true, StateDir: t.TempDir()}
	s := Stop{Host: "claude", SessionID: "t", Cwd: cwd, Message: autoContinue}
	if out := Evaluate(s, o); out.Reason == "" {
		t.Fatalf("first turn: %+v", out)
	}
	// The person's next prompt: the prompt hook marks the new turn.
	if kept, err := TurnStart(cwd, "t", "And again?", o); kept != "" || err != nil {
		t.Fatalf("TurnStart = %q, %v", kept, err)
	}
	if out := Evaluate(s, o); out.Duplicate || out.Reason == "" {
		t.Fatalf("the same stop in the next turn was not judged: %+v", out)
	}
	// No prompt hook, but the host names the turn.
	s.Turn = "turn-2"
	if out := Evaluate(s, o); out.Duplicate || out.Reason == "" {
		t.Fatalf("another turn_id: %+v", out)
	}
	// No prompt hook, no turn id: the transcript's person message.
	s.History = fakeHistory{anchor: "second"}
	if out := Evaluate(s, o); out.Duplicate || out.Reason == "" {
		t.Fatalf("another person message: %+v", out)
	}
	if out := Evaluate(s, o); !out.Duplicate {
		t.Fatalf("the same delivery twice: %+v", out)
	}
}

type fakeHistory struct{ anchor string }

func (h fakeHistory) StepsSincePerson() (int, string)     { return 1, h.anchor }
func (h fakeHistory) LastMarked(func(string) bool) string { return "" }

// A prompt that is baton's own block reason (the host's retry after a
// block) keeps the turn's baseline; so does a prompt the host does not
// give while a block is pending. A person's prompt takes it.
func TestTurnStartKeepsTheBaselineOnRetry(t *testing.T) {
	repo := gitRepo(t)
	o := Options{RequirePacket: true, StateDir: t.TempDir()}
	if kept, _ := TurnStart(repo, "k", "Add the cap.", o); kept != "" {
		t.Fatalf("the person's prompt: kept %q", kept)
	}
	write(t, repo, "a.go", "package a // the cap\n")
	out := Evaluate(Stop{Host: "gemini", SessionID: "k", Cwd: repo, Message: "Done."}, o)
	if !strings.HasPrefix(out.Reason, ReasonPrefix) {
		t.Fatalf("the stop after material work: %+v", out)
	}
	for _, prompt := range []string{out.Reason, "Stop hook feedback:\n" + out.Reason, ""} {
		if kept, err := TurnStart(repo, "k", prompt, o); kept == "" || err != nil {
			t.Errorf("prompt %.40q: the baseline was taken again (%v)", prompt, err)
		}
	}
	if out := Evaluate(Stop{Host: "gemini", SessionID: "k", Cwd: repo, Message: "Done, really.", Active: true}, o); !strings.Contains(out.Reason, "material work") {
		t.Fatalf("the retry's stop forgot the work: %+v", out)
	}
	if kept, _ := TurnStart(repo, "k", "Something else now.", o); kept != "" {
		t.Errorf("a person's prompt during a pending block: kept %q", kept)
	}
}

// Appended splits a text only where the session's last recorded text
// ends, followed by a newline.
func TestAppended(t *testing.T) {
	c := Counter{Dir: t.TempDir(), Session: "a"}
	if _, ok := c.Appended("first\nline"); ok {
		t.Fatal("split with nothing recorded")
	}
	if added, ok := c.Appended("first\nline\nsecond"); !ok || added != "second" {
		t.Fatalf("Appended = %q, %v", added, ok)
	}
	if _, ok := c.Appended("first\nline\nsecondary"); ok {
		t.Fatal("split a text that does not extend the last one")
	}
	if _, ok := c.Appended("first\nline\nsecondary"); ok {
		t.Fatal("split a text equal to the last one")
	}
}
