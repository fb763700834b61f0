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
//	-- doc --        optional: the document's path in the workspace, when it is not input.md
//	-- stdin --      optional, empty: the document is read as standard input is, with no
//	                 workspace (no configuration, components or sessions)
//
// Every other file is part of the document's workspace: a component a
// workflow invokes (`components/Stage.md`), a `.baton.yaml`, a specrew
// project's state (`.specrew/start-context.json`), or clio-coder sessions
// under `state/` (`state/sessions/BUCKET/ID/current.jsonl`). The files and
// the document are laid out in a temporary folder (a Git repository's
// root), and the document is analysed in the environment every entry point
// builds for it (engine.Env), sessions looked up under that `state/` folder.
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

	"github.com/baton-md/baton/markdown"

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
	RunCheck(t, dir, analyzer, nil, deps...)
}

// Check is what a package checks of each fixture's result beyond its
// findings (that every span of its model lies in the document, say).
type Check func(t *testing.T, doc *markdown.Document, res *analysis.Result)

// RunCheck is Run, with extra checks of each result.
func RunCheck(t *testing.T, dir string, analyzer *analysis.Analyzer, extra Check, deps ...*analysis.Analyzer) {
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
			check(t, reg, analyzer, ar, extra)
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

func check(t *testing.T, reg *analysis.Registry, analyzer *analysis.Analyzer, ar *txtar.Archive, extra Check) {
	t.Helper()
	files := map[string]string{}
	for _, f := range ar.Files {
		files[f.Name] = string(f.Data)
	}
	docPath := "input.md"
	if p, ok := files["doc"]; ok {
		docPath = strings.TrimSpace(p)
	}
	input, ok := files[docPath]
	if !ok {
		t.Fatalf("fixture has no %s", docPath)
	}
	want, ok := files["want"]
	if !ok {
		t.Fatal("fixture has no want file")
	}
	doc := markdown.Parse(docPath, input)
	if k, ok := files["kind"]; ok && strings.TrimSpace(k) != doc.Kind.String() {
		t.Errorf("kind = %q, want %q", doc.Kind, strings.TrimSpace(k))
	}
	var res *analysis.Result
	if _, stdin := files["stdin"]; stdin {
		res = reg.Analyze(doc, nil)
	} else {
		res = analyzeInWorkspace(t, reg, ar, docPath, doc)
	}
	own := map[string]bool{}
	for _, r := range analyzer.Rules {
		own[r.ID] = true
	}
	res.Findings = slices.DeleteFunc(res.Findings, func(f analysis.Finding) bool { return !own[f.Rule] })

	Compare(t, doc, res.Findings, want)
	if extra != nil {
		extra(t, doc, res)
	}

	if fixed, ok := files["fixed.md"]; ok {
		CompareFixed(t, input, res.Findings, fixed)
	}
}

// CompareFixed applies the first fix of every finding to input (findings
// offering the same fix, a transition escaping two checkpoints, give it
// once) and compares the text with fixed.
func CompareFixed(t testing.TB, input string, findings []analysis.Finding, fixed string) {
	t.Helper()
	var edits []analysis.Edit
	seen := map[string]bool{}
	for _, f := range findings {
		if len(f.Fixes) == 0 {
			continue
		}
		if key := fmt.Sprint(f.Fixes[0].Edits); !seen[key] {
			seen[key] = true
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

// reserved are the fixture's own files; any other is the workspace's.
var reserved = map[string]bool{"want": true, "kind": true, "fixed.md": true, "doc": true, "stdin": true}

// analyzeInWorkspace lays out a fixture's files (the document at docPath
// among them) in a temporary repository and analyses doc in the
// environment engine builds for it there.
func analyzeInWorkspace(t *testing.T, reg *analysis.Registry, ar *txtar.Archive, docPath string, doc *markdown.Document) *analysis.Result {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/main\n"))
	for _, f := range ar.Files {
		if !reserved[f.Name] {
			write(t, filepath.Join(dir, filepath.FromSlash(f.Name)), f.Data)
		}
	}
	var ledger func(string) handoff.Resolver
	state := filepath.Join(dir, "state")
	if _, err := os.Stat(state); err == nil {
		sessions := engine.Sessions(session.NewStore(), func() []string { return []string{state} }, nil)
		ledger = func(string) handoff.Resolver { return sessions }
	}
	eng := newEngine(reg, ledger)
	env, err := eng.Env(engine.Request{Path: filepath.Join(dir, filepath.FromSlash(docPath))})
	if err != nil {
		t.Fatalf("the fixture's workspace: %v", err)
	}
	return eng.AnalyzeDoc(env, doc)
}

// newEngine is the engine of a test: the fixture's files as they are, the
// sessions it holds (ledger; nil for none), and none of the machine's.
func newEngine(reg *analysis.Registry, ledger func(string) handoff.Resolver) *engine.Engine {
	return engine.New(engine.Sources{Registry: reg, Ledger: ledger})
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
func Compare(t testing.TB, doc *markdown.Document, findings []analysis.Finding, want string) {
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
func Format(doc *markdown.Document, f analysis.Finding) string {
	p := doc.Lines.Position(f.Span.Start, markdown.UTF8)
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

// Registry is the registry of every rule baton ships (engine.Registry),
// for a kind's tests that read the whole set.
func Registry() *analysis.Registry { return engine.Registry() }

// Analyzers lists every analyzer baton ships (engine.Analyzers).
func Analyzers() []*analysis.Analyzer { return engine.Analyzers() }

// AnalyzeAt analyses text as the document at path (name in findings), in
// the environment every entry point builds for it (engine.Env) at
// boundary when one is given; path "" reads it as standard input is, with
// no workspace.
func AnalyzeAt(t testing.TB, path, name, text, boundary string) *analysis.Result {
	t.Helper()
	eng := newEngine(engine.Registry(), nil)
	env, err := eng.Env(engine.Request{Path: path, Boundary: boundary})
	if err != nil {
		t.Fatal(err)
	}
	return eng.AnalyzeDoc(env, markdown.Parse(name, text))
}
