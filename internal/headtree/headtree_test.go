package headtree

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// A linked worktree's .git is a file naming its Git folder, whose HEAD
// names a branch kept in the common folder; its commit is read as the
// main checkout's is, and paths are relative to the workspace root, which
// may lie below the repository's top.
func TestLinkedWorktree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	main := filepath.Join(t.TempDir(), "main")
	if err := os.MkdirAll(filepath.Join(main, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, main, "init", "-q", "-b", "main")
	for _, f := range []string{"sub/A.md", "B.md"} {
		if err := os.WriteFile(filepath.Join(main, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, main, "add", "-A")
	git(t, main, "commit", "-q", "-m", "one")
	wt := filepath.Join(filepath.Dir(main), "wt")
	git(t, main, "worktree", "add", "-q", "-b", "side", wt)

	c := New()
	for _, top := range []string{main, wt} {
		v := c.For(filepath.Join(top, "sub"), filepath.Join(top, "sub"))
		if v.Key() == "" {
			t.Fatalf("%s: no commit read", top)
		}
		for p, want := range map[string]bool{"A.md": true, "B.md": false, "../B.md": true} {
			held, known := v.Holds(p)
			if !known || held != want {
				t.Errorf("%s: Holds(%s) = %v, %v; want %v", top, p, held, known, want)
			}
		}
	}
	if v := c.For(t.TempDir(), t.TempDir()); v.Key() != "" {
		t.Errorf("a folder outside any repository names a commit: %s", v.Key())
	} else if _, known := v.Holds("A.md"); known {
		t.Error("a folder outside any repository knows its files")
	}
}

// Git runs once per commit: asking again, from a new view of the same
// HEAD (the editor's next keystroke), reads the list kept; a commit that
// moves the branch is read anew.
func TestOncePerCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "A.md"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "one")
	c := New()
	before := runs.Load()
	for range 5 {
		if held, known := c.For(dir, dir).Holds("A.md"); !held || !known {
			t.Fatalf("A.md: %v, %v", held, known)
		}
	}
	if n := runs.Load() - before; n != 1 {
		t.Errorf("git ran %d times for one commit", n)
	}
	if err := os.WriteFile(filepath.Join(dir, "B.md"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if held, _ := c.For(dir, dir).Holds("B.md"); held {
		t.Error("B.md held before it is committed")
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "two")
	if held, known := c.For(dir, dir).Holds("B.md"); !held || !known {
		t.Errorf("B.md after its commit: %v, %v", held, known)
	}
	if n := runs.Load() - before; n != 2 {
		t.Errorf("git ran %d times for two commits", n)
	}
}
