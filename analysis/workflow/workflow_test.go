package workflow_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/baton-md/baton/analysistest"
	"github.com/rogpeppe/go-internal/txtar"
)

// The rule fixtures (testdata/rules/*.txtar, in analysistest's form) run on
// the shared runner: their component files, .baton.yaml (its workflow
// section for the component folders and registered names) and document
// are laid out as a workspace; an empty stdin file reads the document
// with none.
// Every span of the model and of each finding's related spans lies in the
// document.
func TestRules(t *testing.T) {
	analysistest.RunCheck(t, "testdata/rules", workflow.Analyzer, func(t *testing.T, doc *markdown.Document, res *analysis.Result) {
		if m, ok := res.Model(workflow.Analyzer).(*workflow.Model); ok {
			checkModel(t, doc.Text, m)
		}
		for _, f := range res.Findings {
			for _, r := range f.Related {
				checkSpan(t, f.Rule+" related", r.Span, len(doc.Text))
			}
		}
	})
}

func analyze(path, text string, env analysis.Env) (*markdown.Document, *analysis.Result) {
	reg, err := analysis.NewRegistry(workflow.Analyzer)
	if err != nil {
		panic(err)
	}
	doc := markdown.Parse(path, text)
	return doc, reg.AnalyzeEnv(doc, nil, env)
}

func checkSpan(t *testing.T, what string, s markdown.Span, n int) {
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

func modelSpans(m *workflow.Model) []markdown.Span {
	c := m.Component
	var out []markdown.Span
	out = append(out, componentSpans(c)...)
	for _, b := range m.Bindings {
		out = append(out, b.Span)
	}
	for _, r := range m.References {
		out = append(out, r.Span)
	}
	return out
}

func componentSpans(c *workflow.Component) []markdown.Span {
	var out []markdown.Span
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
	more, _ := filepath.Glob("testdata/rules/*/*.txtar")
	files = append(files, more...)
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

// Every rule's doc ends by saying what the engine does with what it
// reports: fails the document, renders it differently, or neither, so
// that only baton reports it.
func TestRuleDocsSayWhatTheEngineDoes(t *testing.T) {
	for _, r := range workflow.Rules {
		_, verdict, ok := strings.Cut(r.Doc, "\n\n**The engine** ")
		if !ok || strings.Contains(verdict, "**The engine** ") {
			t.Errorf("%s: no single paragraph says what the engine does", r.ID)
			continue
		}
		if !strings.HasPrefix(verdict, "fails") && !strings.HasPrefix(verdict, "renders") && !strings.HasPrefix(verdict, "only baton") {
			t.Errorf("%s: the engine %q: neither fails, renders nor only baton", r.ID, verdict)
		}
	}
}
