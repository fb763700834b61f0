package engine_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/baton-md/baton/engine"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// catFile is the engine's own test of a bundled component: `xmd workflow
// start` reads each with `git cat-file blob <HEAD>:<path>` from the
// repository root (packages/cli/src/workflow-bundle.ts readComponent,
// packages/workflow/src/git.ts readObject, at 307ca55c) and refuses the
// start when that fails.
func catFile(dir, path string) bool {
	cmd := exec.Command("git", "-C", dir, "cat-file", "blob", "HEAD:"+path)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	return cmd.Run() == nil
}

// A bundled component is read from the HEAD commit, not the working tree
// (WF10): one the commit holds runs (modified since, or deleted from the
// working tree, it runs as committed), one it does not (untracked, staged
// only, a folder) refuses the start. The engine reads the commit's files
// once per commit, and again when HEAD moves.
func TestBundleReadFromHEAD(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	root := "---\nworkflow:\n  components:\n    Plan: ./Plan.md\n    Edited: ./Edited.md\n    Gone: ./Gone.md\n    Draft: ./Draft.md\n    Staged: ./Staged.md\n    Folder: ./Folder.md\n---\n\n<Plan />\n"
	write(t, dir, map[string]string{
		"flows/root.md":           root,
		"flows/Plan.md":           "Plan.\n",
		"flows/Edited.md":         "Edited.\n",
		"flows/Gone.md":           "Gone.\n",
		"flows/Folder.md/Step.md": "Step.\n",
	})
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "bundle")
	write(t, dir, map[string]string{
		"flows/Edited.md": "Edited, not committed.\n",
		"flows/Draft.md":  "Draft.\n",
		"flows/Staged.md": "Staged.\n",
	})
	git(t, dir, "add", "flows/Staged.md")
	if err := os.Remove(filepath.Join(dir, "flows", "Gone.md")); err != nil {
		t.Fatal(err)
	}

	e := engine.New(engine.Sources{Registry: engine.Registry()})
	analyze := func() []string {
		t.Helper()
		env, err := e.Env(engine.Request{Path: filepath.Join(dir, "flows", "root.md")})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range e.Analyze(env, "root.md", root).Findings {
			if f.Rule == workflow.RuleBundle.ID {
				got = append(got, f.Message)
			}
		}
		return got
	}
	refused := func(got []string, name string) bool {
		return slices.ContainsFunc(got, func(m string) bool { return strings.HasPrefix(m, "flows/"+name+".md") })
	}
	got := analyze()
	for _, c := range []struct {
		name    string
		refused bool
	}{
		{"Plan", false}, {"Edited", false}, {"Gone", false},
		{"Draft", true}, {"Staged", true}, {"Folder", true},
	} {
		if engineRefuses := !catFile(dir, "flows/"+c.name+".md"); engineRefuses != c.refused {
			t.Fatalf("%s: git cat-file says refused=%v, the case says %v", c.name, engineRefuses, c.refused)
		}
		if refused(got, c.name) != c.refused {
			t.Errorf("%s: refused = %v, want %v (findings %q)", c.name, !c.refused, c.refused, got)
		}
	}
	if len(got) != 3 {
		t.Errorf("findings %q, want three", got)
	}

	// Committing the draft moves HEAD: the next analysis reads the new
	// commit, and the environment's key changes with it.
	env, _ := e.Env(engine.Request{Path: filepath.Join(dir, "flows", "root.md")})
	before := env.Key()
	git(t, dir, "add", "flows/Draft.md")
	git(t, dir, "commit", "-q", "-m", "draft")
	env, _ = e.Env(engine.Request{Path: filepath.Join(dir, "flows", "root.md")})
	if env.Key() == before {
		t.Error("the environment's key did not change with HEAD")
	}
	got = analyze()
	if len(got) != 1 || !refused(got, "Folder") {
		t.Errorf("after committing the draft and the staged file: %q", got)
	}
	// Packed refs name the commit as loose ones do.
	git(t, dir, "pack-refs", "--all")
	if got := analyze(); len(got) != 1 || !refused(got, "Folder") {
		t.Errorf("with packed refs: %q", got)
	}
}

// Without a repository, or with a branch that has no commit yet, what the
// commit holds is not known, and only the working tree is checked.
func TestBundleWithoutCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, repo := range []bool{false, true} {
		dir := t.TempDir()
		write(t, dir, map[string]string{
			".baton.yaml": "",
			"root.md":     "---\nworkflow:\n  components:\n    Plan: ./Plan.md\n    Lost: ./Lost.md\n---\n\n<Plan />\n",
			"Plan.md":     "Plan.\n",
		})
		if repo {
			git(t, dir, "init", "-q", "-b", "main")
		}
		e := engine.New(engine.Sources{Registry: engine.Registry()})
		env, err := e.Env(engine.Request{Path: filepath.Join(dir, "root.md")})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "root.md"))
		var got []analysis.Finding
		for _, f := range e.Analyze(env, "root.md", string(b)).Findings {
			if f.Rule == workflow.RuleBundle.ID {
				got = append(got, f)
			}
		}
		if len(got) != 1 || got[0].Message != "Lost.md: no such file in the workspace" {
			t.Errorf("repository %v: %v", repo, got)
		}
	}
}
