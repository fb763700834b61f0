package workflow_test

import (
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/baton-md/baton/internal/corpus"
	"github.com/rogpeppe/go-internal/txtar"
)

// fuzzSeeds are every Markdown file of the fixtures and, when it is beside
// the repository, of the shared corpus (TestCorpusGolden requires it; a
// fuzz seed need not), and a few odd shapes: CRLF and lone CR, unterminated
// tags, strings, templates and fences, astral characters, front matter that
// is not a mapping.
func fuzzSeeds(t testing.TB) []string {
	seeds := []string{
		"",
		"<",
		"<A",
		"</A>",
		"<A></B></A>",
		"<A b=\"c\nd\" e={f} {...g} h/>",
		"<If condition={`${a}` + '}'}>x<Else>y</Else></If>",
		"<Loop max={1}>\r\n<UserCheckpoint as=\"cp\" />\r\n<Prompt>x</Prompt>\r\n</Loop>\r\n",
		"---\r\nprops:\r\n  a: { type: string }\r\n---\r\n{props.b}\r",
		"---\nprops: [\n---\n<X y={/re{/} />",
		"---\n- a\n- b\n---\n<Each in={x} let=\"y\">{y.z}</Each>{y}",
		"```ts eval\nconst { a, b: [c] } = x;\n```\n{a}{c}\n~~~\n<A>\n",
		"`` <A> `` `{props.x}` \\{props.y} <!-- <B> --> <!--",
		"😀<Ä 😀={1}>{😀}</Ä>",
		"<UserCheckpoint\n  purpose=\"p\"\n/>\n<If condition={!cp.proceed}><Break/><Else><Git.Push /></Else></If>",
	}
	if root, ok := corpus.Root(); ok {
		for _, name := range []string{"before-gating", "after-gating", "wip-tip", "main-examples"} {
			for _, f := range readFS(t, filepath.Join(root, "xmd", name)) {
				if len(f.Data) < 64<<10 {
					seeds = append(seeds, string(f.Data))
				}
			}
		}
	}
	files, err := filepath.Glob("testdata/rules/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, af := range ar.Files {
			if strings.HasSuffix(af.Name, ".md") && len(af.Data) < 64<<10 {
				seeds = append(seeds, string(af.Data))
			}
		}
	}
	return seeds
}

// fuzzFS is a workspace for the fuzzed document to resolve in.
var fuzzFS = fstest.MapFS{
	"UserCheckpoint.md": {Data: []byte("---\nprops:\n  purpose: { type: string }\nreturns:\n  proceed: { type: boolean }\n---\n<Return value={{ proceed: true }} />\n")},
	"Planning.md":       {Data: []byte("---\nrequired: [a]\nprops:\n  a: { type: string }\n---\n<Content />\n")},
	"root.md":           {Data: []byte("---\nworkflow:\n  components:\n    Stage: ./Planning.md\n    Doc: ./doc.md\n---\n")},
}

// FuzzParse: the parser never panics, and every span it returns lies
// inside the text with Start ≤ End, children inside their parents; the
// analyzer, run over the same text in a workspace, reports spans inside
// the text and fixes that apply.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	reg, err := analysis.NewRegistry(workflow.Analyzer)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c := workflow.Parse(text)
		for _, s := range componentSpans(c) {
			if s.Start < 0 || s.End < s.Start || s.End > len(text) {
				t.Fatalf("span %v outside the text (%d bytes)", s, len(text))
			}
		}
		for _, tg := range c.Tags {
			inside := func(a, b markdown.Span) bool { return a.Start >= b.Start && a.End <= b.End }
			if !inside(tg.NameSpan, tg.Open) || !inside(tg.Open, tg.Span) || !inside(tg.Inner, tg.Span) {
				t.Fatalf("<%s>: spans not nested: name %v open %v inner %v span %v", tg.Name, tg.NameSpan, tg.Open, tg.Inner, tg.Span)
			}
			if tg.Parent != nil && !inside(tg.Span, tg.Parent.Inner) {
				t.Fatalf("<%s> %v outside its parent <%s>'s content %v", tg.Name, tg.Span, tg.Parent.Name, tg.Parent.Inner)
			}
			if text[tg.NameSpan.Start:tg.NameSpan.End] != tg.Name {
				t.Fatalf("<%s>: name span reads %q", tg.Name, text[tg.NameSpan.Start:tg.NameSpan.End])
			}
		}
		doc := markdown.Parse("doc.md", text)
		doc.Kind = markdown.KindWorkflow // whatever detection says, run the rules
		res := reg.AnalyzeEnv(doc, nil, analysis.Env{workflow.EnvFS: fuzzFS, workflow.EnvPath: "doc.md"})
		for _, x := range res.Findings {
			if x.Span.Start < 0 || x.Span.End < x.Span.Start || x.Span.End > len(text) {
				t.Fatalf("%s: span %v outside the text (%d bytes)", x.Rule, x.Span, len(text))
			}
			for _, fix := range x.Fixes {
				if _, err := analysis.ApplyEdits(text, fix.Edits); err != nil {
					t.Fatalf("%s: fix %q: %v", x.Rule, fix.Title, err)
				}
			}
		}
		if m, ok := res.Model(workflow.Analyzer).(*workflow.Model); ok {
			for _, s := range modelSpans(m) {
				if s.Start < 0 || s.End < s.Start || s.End > len(text) {
					t.Fatalf("model span %v outside the text (%d bytes)", s, len(text))
				}
			}
		}
	})
}
