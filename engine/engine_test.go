package engine_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/handoff/session"
	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/internal/workspace"
)

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

// Env finds, for a document, the workspace root, the .baton.yaml and its
// rules for that document, the state folder it names, the specrew
// workspace above it, and the workflow files with the caller's open texts
// in place of the disk's.
func TestEnv(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		".git/HEAD":           "ref: refs/heads/main\n",
		".baton.yaml":         "rules:\n  packet/heading-level: off\nhandoff:\n  state-dir: state\nworkflow:\n  registered: [Probe]\n",
		".specrew/README.md":  "specrew\n",
		"docs/w.md":           "<Probe />\n",
		"components/Badge.md": "on disk\n",
	})
	var ledgerDir string
	e := engine.New(engine.Sources{Registry: engine.Registry(), Ledger: func(d string) handoff.Resolver {
		ledgerDir = d
		return func(string) handoff.Lookup { return handoff.Lookup{} }
	}})
	env, err := e.Env(engine.Request{Path: filepath.Join(dir, "docs", "w.md"), Overlay: func(root string) map[string]string {
		return map[string]string{"components/Badge.md": "open in the editor\n"}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if env.Root != dir || env.WorkflowPath != "docs/w.md" || env.SpecrewRoot != dir || env.Specrew == nil {
		t.Errorf("root %q, path %q, specrew %q (%v)", env.Root, env.WorkflowPath, env.SpecrewRoot, env.Specrew != nil)
	}
	if env.Config.Severity["packet/heading-level"] != analysis.Off {
		t.Errorf("rules = %v", env.Config.Severity)
	}
	if ledgerDir != filepath.Join(dir, "state") || env.StateDir != ledgerDir {
		t.Errorf("state folder %q / %q", ledgerDir, env.StateDir)
	}
	if b, err := fs.ReadFile(env.WorkflowFS, "components/Badge.md"); err != nil || string(b) != "open in the editor\n" {
		t.Errorf("the open text is not read in place of the file: %q, %v", b, err)
	}
	m := env.Analysis()
	if m[workflow.EnvPath] != "docs/w.md" || m[workflow.EnvRegistered] == nil || m[handoff.EnvLedger] == nil {
		t.Errorf("analysis env = %v", m)
	}
	// An editor's unsaved buffer: nothing of the disk applies.
	u, err := e.Env(engine.Request{Untitled: true})
	if err != nil || u.File != nil || u.Root != "" || u.Specrew != nil || u.Ledger == nil {
		t.Errorf("untitled env = %+v, %v", u, err)
	}
	// A broken configuration is an error, not the defaults.
	write(t, dir, map[string]string{"broken/.baton.yaml": "rules:\n  packet/heading-level: fatal\n"})
	if _, err := e.Env(engine.Request{Path: filepath.Join(dir, "broken", "x.md")}); err == nil {
		t.Error("a broken .baton.yaml gave no error")
	}
}

// Each kind has a detector, features and analyzers, and the detectors are
// tried in the kinds' order: a handoff quoting packet headings is a handoff.
func TestKindDetectorsAreParses(t *testing.T) {
	for _, k := range engine.Kinds {
		if k.Detect == nil {
			t.Errorf("kind %v has no detector", k.Kind)
		}
		if k.Features == nil || len(k.Analyzers) == 0 {
			t.Errorf("kind %v has no features or no analyzers", k.Kind)
		}
	}
	if got := markdown.Parse("x.md", "# Handoff\n\n**Goal:** finish the retry rules\n\nCarried from session `s1`.\n\n## Files\n\n## What I Just Did\n\n## Why I Stopped\n\n## What Happens Next\n").Kind; got != markdown.KindHandoff {
		t.Errorf("a handoff quoting packet headings is %v: the handoff detector must come first", got)
	}
}

// A Static engine walks up from each folder once: a .baton.yaml that
// appears during the run is not looked for again (a run of baton check),
// where the server's engine, not static, finds it.
func TestStaticFindsOncePerFolder(t *testing.T) {
	for _, static := range []bool{true, false} {
		dir := t.TempDir()
		write(t, dir, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
		e := engine.New(engine.Sources{Registry: engine.Registry(), Static: static})
		if env, err := e.Env(engine.Request{Path: filepath.Join(dir, "a.md")}); err != nil || env.File != nil {
			t.Fatalf("static %v: %+v, %v", static, env, err)
		}
		write(t, dir, map[string]string{".baton.yaml": "rules:\n  packet/heading-level: off\n"})
		env, err := e.Env(engine.Request{Path: filepath.Join(dir, "b.md")})
		if err != nil {
			t.Fatal(err)
		}
		if found := env.File != nil; found == static {
			t.Errorf("static %v: the .baton.yaml written during the run was found: %v", static, found)
		}
	}
}

// TestStaticReadsWorkingFolderOnce: a Static engine (one run) reads the
// working folder once and resolves every relative path against it, as
// filepath.Abs does; the server's engine asks each time.
func TestStaticReadsWorkingFolderOnce(t *testing.T) {
	for _, static := range []bool{true, false} {
		first, second := t.TempDir(), t.TempDir()
		write(t, first, map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".baton.yaml": "rules:\n  packet/heading-level: off\n"})
		write(t, second, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
		e := engine.New(engine.Sources{Registry: engine.Registry(), Static: static})
		t.Chdir(first)
		env, err := e.Env(engine.Request{Path: "a.md"})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := filepath.Abs("a.md")
		if env.Path != want || env.File == nil {
			t.Fatalf("static %v: a.md is %q with configuration %v, want %q and first's", static, env.Path, env.File, want)
		}
		t.Chdir(second)
		env, err = e.Env(engine.Request{Path: "b.md"})
		if err != nil {
			t.Fatal(err)
		}
		inFirst := env.Path == filepath.Join(first, "b.md")
		if inFirst != static {
			t.Errorf("static %v: b.md after a change of folder is %q", static, env.Path)
		}
		if f, err := e.ConfigFor("b.md"); err != nil || (f != nil) != static {
			t.Errorf("static %v: ConfigFor(b.md) = %v, %v", static, f, err)
		}
	}
}

// TestStaticWorkspaceViewOnceARun: a Static engine gives the documents of
// one workspace one view of it (opened once a run); an editor's engine a
// view for each analysis, which sees the files as they are then.
func TestStaticWorkspaceViewOnceARun(t *testing.T) {
	for _, static := range []bool{true, false} {
		dir := t.TempDir()
		write(t, dir, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "a.md": "# a\n", "sub/b.md": "# b\n"})
		e := engine.New(engine.Sources{Registry: engine.Registry(), Static: static})
		a, err := e.Env(engine.Request{Path: filepath.Join(dir, "a.md")})
		if err != nil {
			t.Fatal(err)
		}
		b, err := e.Env(engine.Request{Path: filepath.Join(dir, "sub", "b.md")})
		if err != nil {
			t.Fatal(err)
		}
		if a.Root != b.Root || a.WorkflowFS == nil {
			t.Fatalf("static %v: roots %s and %s, view %v", static, a.Root, b.Root, a.WorkflowFS)
		}
		if same := a.WorkflowFS == b.WorkflowFS; same != static {
			t.Errorf("static %v: one view for both documents: %v", static, same)
		}
		if data, err := fs.ReadFile(b.WorkflowFS, "a.md"); err != nil || string(data) != "# a\n" {
			t.Errorf("static %v: a.md through b's view: %q, %v", static, data, err)
		}
	}
}

// TestStaticRootIsWorkspaceRoot: a Static engine finds each folder's root
// once, from its parent's, and finds the root workspace.Root finds.
func TestStaticRootIsWorkspaceRoot(t *testing.T) {
	top := t.TempDir()
	for _, d := range []string{"a/b/c", "a/x", "m/n/o/p", "q"} {
		if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, marker := range []string{"a/.git", "m/n/.baton.yaml", "a/b/c/.baton.yaml", "m/n/o/.specrew/x"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(top, marker)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(top, marker), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := engine.New(engine.Sources{Registry: engine.Registry(), Static: true})
	for _, doc := range []string{"a/b/c/d.md", "a/b/d.md", "a/x/d.md", "a/d.md", "m/n/o/p/d.md", "m/d.md", "q/d.md", "d.md", "a/b/c/e.md", "m/n/d.md"} {
		path := filepath.Join(top, doc)
		env, err := e.Env(engine.Request{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		if want := workspace.Root(path); env.Root != want {
			t.Errorf("%s: root %s, want %s (workspace.Root)", doc, env.Root, want)
		}
		// The configuration and the specrew workspace, found from the
		// parent's answer, are those found walking up from the folder.
		want, err := config.Discover(filepath.Dir(path))
		if err != nil {
			t.Fatal(err)
		}
		if got := env.File; (got == nil) != (want == "") || got != nil && got.Path != want {
			t.Errorf("%s: configuration %+v, want %q (config.Discover)", doc, got, want)
		}
		if want := engine.SpecrewRoot(filepath.Dir(path)); env.SpecrewRoot != want {
			t.Errorf("%s: specrew root %q, want %q", doc, env.SpecrewRoot, want)
		}
	}
}

// TestStaticFindsEachSessionOnce: the ForFiles engine of a run (Static)
// looks a session up once, for every handoff document that names it (a
// session removed during the run is still the one found); one not Static
// looks again.
func TestStaticFindsEachSessionOnce(t *testing.T) {
	for _, static := range []bool{true, false} {
		state := t.TempDir()
		sess := filepath.Join(state, "sessions", "bucket", "s1")
		write(t, sess, map[string]string{
			"current.jsonl": `{"type":"session","version":3,"id":"s1","timestamp":"2026-08-21T14:00:00.000Z","cwd":"/p"}` + "\n",
			"meta.json":     `{"cwd":"/p","pinnedLeafTurnId":null}`,
		})
		e := engine.ForFiles(engine.FilesOptions{Registry: engine.Registry(), Store: session.NewStore(), StateDir: state, Static: static})
		env, err := e.Env(engine.Request{Path: filepath.Join(t.TempDir(), "h.md")})
		if err != nil {
			t.Fatal(err)
		}
		if lk := env.Ledger("s1"); lk.Err != nil || lk.Ledger == nil {
			t.Fatalf("static %v: %+v", static, lk)
		}
		if err := os.RemoveAll(sess); err != nil {
			t.Fatal(err)
		}
		env, err = e.Env(engine.Request{Path: filepath.Join(t.TempDir(), "h2.md")})
		if err != nil {
			t.Fatal(err)
		}
		if lk := env.Ledger("s1"); (lk.Err == nil) != static {
			t.Errorf("static %v: after the session went: %+v", static, lk)
		}
	}
}

// TestStaticEnvAtOnce: the environments of a run's documents, asked by
// several workers at once for the folders of one tree, are those asked
// one at a time (the race detector watches the engine's per-folder facts).
func TestStaticEnvAtOnce(t *testing.T) {
	top := t.TempDir()
	write(t, top, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "a/.baton.yaml": "", "a/b/.specrew/x": ""})
	var paths []string
	for _, d := range []string{"a/b/c/d", "a/b/c/e", "a/b/f", "a/g", "h/i"} {
		if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, filepath.Join(top, d, "x.md"))
	}
	for round := range 200 {
		e := engine.New(engine.Sources{Registry: engine.Registry(), Static: true})
		var wg sync.WaitGroup
		for w := range 16 {
			wg.Go(func() {
				p := paths[(w/4+round)%len(paths)]
				env, err := e.Env(engine.Request{Path: p})
				if err != nil {
					t.Error(err)
					return
				}
				if want := engine.SpecrewRoot(filepath.Dir(p)); env.SpecrewRoot != want {
					t.Errorf("%s: specrew root %q, want %q", p, env.SpecrewRoot, want)
				}
			})
		}
		wg.Wait()
	}
}
