package workflow_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/analysistest"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// A fixture (testdata/rules/*.txtar) holds:
//
//	-- input.md --   the document (or the file that -- doc -- names)
//	-- doc --        optional: the document's path, e.g. "wf/start.md"
//	-- env --        optional: "nofs" runs without a workspace; lines
//	                 "component-dirs: a b" and "registered: N P*" set
//	                 EnvComponentDirs and EnvRegistered
//	-- kind --       optional: the kind the document must be detected as
//	-- want --       expected findings, "LINE:COL rule-id message-substring"
//	-- fixed.md --   optional: the document after the first fix of every finding
//
// Every other file (and the document) is mounted as an fstest.MapFS, the
// workspace the document's components resolve in.
func TestRules(t *testing.T) {
	files, err := filepath.Glob("testdata/rules/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			runFixture(t, ar)
		})
	}
}

var reserved = map[string]bool{"doc": true, "env": true, "kind": true, "want": true, "fixed.md": true}

func runFixture(t *testing.T, ar *txtar.Archive) {
	t.Helper()
	files := map[string]string{}
	fsys := fstest.MapFS{}
	for _, f := range ar.Files {
		files[f.Name] = string(f.Data)
		if !reserved[f.Name] {
			fsys[f.Name] = &fstest.MapFile{Data: f.Data}
		}
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
	env := analysis.Env{workflow.EnvFS: fsys, workflow.EnvPath: docPath}
	for line := range strings.Lines(files["env"]) {
		key, value, _ := strings.Cut(strings.TrimSpace(line), ":")
		switch key {
		case "nofs":
			env = nil
		case "component-dirs":
			env[workflow.EnvComponentDirs] = strings.Fields(value)
		case "registered":
			env[workflow.EnvRegistered] = strings.Fields(value)
		case "":
		default:
			t.Fatalf("env: unknown line %q", line)
		}
	}
	doc, res := analyze(docPath, input, env)
	if k, ok := files["kind"]; ok && strings.TrimSpace(k) != doc.Kind.String() {
		t.Errorf("kind = %q, want %q", doc.Kind, strings.TrimSpace(k))
	}
	if m, ok := res.Model(workflow.Analyzer).(*workflow.Model); ok {
		checkModel(t, input, m)
	}
	for _, f := range res.Findings {
		for _, r := range f.Related {
			checkSpan(t, f.Rule+" related", r.Span, len(input))
		}
	}
	analysistest.Compare(t, doc, res.Findings, want)
	if fixed, ok := files["fixed.md"]; ok {
		out, err := analysis.ApplyEdits(input, firstFixes(res.Findings))
		if err != nil {
			t.Fatalf("applying fixes: %v", err)
		}
		if d := cmp.Diff(fixed, out); d != "" {
			t.Errorf("fixed document (-want +got):\n%s", d)
		}
	}
}

func analyze(path, text string, env analysis.Env) (*analysis.Document, *analysis.Result) {
	reg, err := analysis.NewRegistry(workflow.Analyzer)
	if err != nil {
		panic(err)
	}
	doc := analysis.Parse(path, text)
	return doc, reg.AnalyzeEnv(doc, nil, env)
}

// firstFixes collects the first fix of every finding; findings that offer
// the same fix (a transition escaping two checkpoints) contribute it once.
func firstFixes(fs []analysis.Finding) []analysis.Edit {
	var edits []analysis.Edit
	seen := map[string]bool{}
	for _, f := range fs {
		if len(f.Fixes) == 0 {
			continue
		}
		key := fmt.Sprint(f.Fixes[0].Edits)
		if seen[key] {
			continue
		}
		seen[key] = true
		edits = append(edits, f.Fixes[0].Edits...)
	}
	return edits
}

func checkSpan(t *testing.T, what string, s analysis.Span, n int) {
	t.Helper()
	if s.Start < 0 || s.End < s.Start || s.End > n {
		t.Errorf("%s: span %v outside the document (%d bytes)", what, s, n)
	}
}

// checkModel checks that every span of the model lies in the text.
func checkModel(t *testing.T, text string, m *workflow.Model) {
	t.Helper()
	for _, s := range modelSpans(m) {
		checkSpan(t, "model", s, len(text))
	}
}

func modelSpans(m *workflow.Model) []analysis.Span {
	c := m.Component
	var out []analysis.Span
	out = append(out, componentSpans(c)...)
	for _, b := range m.Bindings {
		out = append(out, b.Span)
	}
	for _, r := range m.References {
		out = append(out, r.Span)
	}
	return out
}

func componentSpans(c *workflow.Component) []analysis.Span {
	var out []analysis.Span
	if c.FrontMatter != nil {
		out = append(out, c.FrontMatter.Span, c.FrontMatter.Body)
	}
	out = append(out, c.Props.Key)
	for _, p := range c.Props.List {
		out = append(out, p.Span)
	}
	for _, n := range append(slices.Clone(c.Required), c.Meta...) {
		out = append(out, n.Span)
	}
	if c.Returns != nil {
		out = append(out, c.Returns.Key)
		for _, p := range c.Returns.Props {
			out = append(out, p.Span)
		}
	}
	for _, e := range c.Bundle {
		out = append(out, e.NameSpan, e.PathSpan)
	}
	for _, tg := range c.Tags {
		out = append(out, tg.NameSpan, tg.Span, tg.Open, tg.Close, tg.CloseName, tg.Inner)
		for _, a := range tg.Attrs {
			out = append(out, a.NameSpan, a.ValueSpan, a.Span)
		}
	}
	for _, p := range c.Placeholders {
		out = append(out, p.Span, p.PathSpan)
	}
	for _, cb := range c.CodeBlocks {
		out = append(out, cb.Span, cb.Content)
	}
	for _, e := range c.Errors {
		out = append(out, e.Span)
	}
	return out
}

// TestRegistry: every rule is well formed, and the analyzer registers.
func TestRegistry(t *testing.T) {
	if _, err := analysis.NewRegistry(workflow.Analyzer); err != nil {
		t.Fatal(err)
	}
	for _, r := range workflow.Rules {
		if !strings.HasPrefix(r.ID, "workflow/") {
			t.Errorf("rule %s is not a workflow/ rule", r.ID)
		}
	}
	// Every rule has a fixture that expects it.
	var wants strings.Builder
	files, _ := filepath.Glob("testdata/rules/*.txtar")
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, af := range ar.Files {
			if af.Name == "want" {
				wants.Write(af.Data)
			}
		}
	}
	for _, r := range workflow.Rules {
		if !strings.Contains(wants.String(), " "+r.ID+" ") {
			t.Errorf("no fixture expects %s", r.ID)
		}
	}
}

// The workspace fixtures run on the shared runner, which lays out their
// files and analyses in the environment every entry point builds.
func TestWorkspaceFixtures(t *testing.T) {
	analysistest.Run(t, "testdata/workspace", workflow.Analyzer)
}
