// Package analysistest runs an analyzer over txtar fixtures, keeping each
// document next to the findings it must produce.
//
// A fixture holds:
//
//	-- input.md --   the document
//	-- want --       one expected finding a line: "LINE:COL rule-id substring of the message"
//	                 (1-based line and byte column); empty when nothing may be reported
//	-- kind --       optional: the kind the document must be detected as
//	-- fixed.md --   optional: the document after applying the first fix of every finding
//
// Every other file is part of the document's workspace: a component a
// workflow invokes (`components/Stage.md`), a `.baton.yaml`, a specrew
// project's state (`.specrew/start-context.json`), or clio-coder sessions
// under `state/` (`state/sessions/BUCKET/ID/current.jsonl`). When a fixture
// has any, its files and the document are laid out in a temporary folder
// (a Git repository's root) and the document is analysed in the
// environment every entry point builds for it (engine.Env), sessions
// looked up under that `state/` folder.
//
// The text before the first file is free: fixtures from real projects say
// there where the document came from.
package analysistest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// Run checks every testdata/**/*.txtar fixture under dir against analyzer.
// The analyzers it requires, and any others in deps, run too; only the
// findings of analyzer's own rules are compared.
func Run(t *testing.T, dir string, analyzer *analysis.Analyzer, deps ...*analysis.Analyzer) {
	t.Helper()
	reg, err := analysis.NewRegistry(withRequired(append(slices.Clone(deps), analyzer))...)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".txtar") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no fixtures under %s", dir)
	}
	for _, file := range files {
		name, _ := filepath.Rel(dir, file)
		t.Run(strings.TrimSuffix(name, ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			check(t, reg, analyzer, ar)
		})
	}
}

// withRequired is analyzers and every analyzer they require, transitively.
func withRequired(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	for i := 0; i < len(analyzers); i++ {
		for _, req := range analyzers[i].Requires {
			if !slices.Contains(analyzers, req) {
				analyzers = append(analyzers, req)
			}
		}
	}
	return analyzers
}

func check(t *testing.T, reg *analysis.Registry, analyzer *analysis.Analyzer, ar *txtar.Archive) {
	t.Helper()
	files := map[string]string{}
	for _, f := range ar.Files {
		files[f.Name] = string(f.Data)
	}
	input, ok := files["input.md"]
	if !ok {
		t.Fatal("fixture has no input.md")
	}
	want, ok := files["want"]
	if !ok {
		t.Fatal("fixture has no want file")
	}
	doc := analysis.Parse("input.md", input)
	if k, ok := files["kind"]; ok && strings.TrimSpace(k) != doc.Kind.String() {
		t.Errorf("kind = %q, want %q", doc.Kind, strings.TrimSpace(k))
	}
	var res *analysis.Result
	if env := workspaceEnv(t, reg, ar); env != nil {
		res = engine.New(engine.Sources{Registry: reg, Ledger: env.ledger}).AnalyzeDoc(env.env, doc)
	} else {
		res = reg.Analyze(doc, nil)
	}
	own := map[string]bool{}
	for _, r := range analyzer.Rules {
		own[r.ID] = true
	}
	res.Findings = slices.DeleteFunc(res.Findings, func(f analysis.Finding) bool { return !own[f.Rule] })

	Compare(t, doc, res.Findings, want)

	if fixed, ok := files["fixed.md"]; ok {
		var edits []analysis.Edit
		for _, f := range res.Findings {
			if len(f.Fixes) > 0 {
				edits = append(edits, f.Fixes[0].Edits...)
			}
		}
		out, err := analysis.ApplyEdits(input, edits)
		if err != nil {
			t.Fatalf("applying fixes: %v", err)
		}
		if d := cmp.Diff(fixed, out); d != "" {
			t.Errorf("fixed document (-want +got):\n%s", d)
		}
	}
}

// reserved are the fixture's own files; any other is the workspace's.
var reserved = map[string]bool{"input.md": true, "want": true, "kind": true, "fixed.md": true}

type fixtureEnv struct {
	env    *engine.Env
	ledger func(string) handoff.Resolver
}

// workspaceEnv lays out a fixture's workspace files with its document and
// returns the environment engine builds there, or nil when the fixture has
// no workspace files.
func workspaceEnv(t *testing.T, reg *analysis.Registry, ar *txtar.Archive) *fixtureEnv {
	t.Helper()
	dir := ""
	for _, f := range ar.Files {
		if reserved[f.Name] {
			continue
		}
		if dir == "" {
			dir = t.TempDir()
			write(t, filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/main\n"))
		}
		write(t, filepath.Join(dir, filepath.FromSlash(f.Name)), f.Data)
	}
	if dir == "" {
		return nil
	}
	for _, f := range ar.Files {
		if f.Name == "input.md" {
			write(t, filepath.Join(dir, "input.md"), f.Data)
		}
	}
	store := session.NewStore()
	state := filepath.Join(dir, "state")
	fe := &fixtureEnv{ledger: func(string) handoff.Resolver {
		return func(id string) handoff.Lookup {
			found, looked, err := session.Find([]string{state}, id)
			if err != nil {
				return handoff.Lookup{Err: err, Looked: looked}
			}
			l, err := store.Ledger(found)
			return handoff.Lookup{Ledger: l, Err: err, Looked: looked}
		}
	}}
	if _, err := os.Stat(state); err != nil {
		fe.ledger = nil // no sessions: handoff documents are not checked against one
	}
	env, err := engine.New(engine.Sources{Registry: reg, Ledger: fe.ledger}).Env(engine.Request{Path: filepath.Join(dir, "input.md")})
	if err != nil {
		t.Fatalf("the fixture's workspace: %v", err)
	}
	fe.env = env
	return fe
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Compare checks findings against a want file: every finding's span lies
// in the document, and each "LINE:COL rule-id message-substring" line (blank
// lines and # comments skipped) matches one finding, none left over.
func Compare(t testing.TB, doc *analysis.Document, findings []analysis.Finding, want string) {
	t.Helper()
	got := make([]string, len(findings))
	for i, f := range findings {
		if f.Span.Start < 0 || f.Span.End < f.Span.Start || f.Span.End > len(doc.Text) {
			t.Errorf("finding %s has span %v outside the document (%d bytes)", f.Rule, f.Span, len(doc.Text))
		}
		got[i] = Format(doc, f)
	}
	matched := make([]bool, len(got))
	for _, w := range strings.Split(want, "\n") {
		if w = strings.TrimSpace(w); w == "" || strings.HasPrefix(w, "#") {
			continue
		}
		found := false
		for i, g := range got {
			if !matched[i] && matches(g, w) {
				matched[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("missing finding: %s", w)
		}
	}
	for i, g := range got {
		if !matched[i] {
			t.Errorf("unexpected finding: %s", g)
		}
	}
}

// Format writes a finding as "LINE:COL rule-id message" (1-based, byte column).
func Format(doc *analysis.Document, f analysis.Finding) string {
	p := doc.Lines.Position(f.Span.Start, analysis.UTF8)
	return fmt.Sprintf("%d:%d %s %s", p.Line+1, p.Character+1, f.Rule, f.Message)
}

// matches reports whether a formatted finding satisfies a want line: the
// same position and rule, and a message containing the rest.
func matches(got, want string) bool {
	wf := strings.SplitN(want, " ", 3)
	gf := strings.SplitN(got, " ", 3)
	if len(wf) < 2 || len(gf) < 3 || wf[0] != gf[0] || wf[1] != gf[1] {
		return false
	}
	if len(wf) == 3 {
		return strings.Contains(gf[2], wf[2])
	}
	return true
}
