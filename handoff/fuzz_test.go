package handoff_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
	"github.com/rogpeppe/go-internal/txtar"
)

// fuzzSeeds are the fixtures' documents, the rendered documents, and a few
// odd shapes: CRLF and lone CR, no final line break, nested and ordered
// lists, code blocks, setext headings, front matter.
func fuzzSeeds(t testing.TB) []string {
	seeds := []string{
		"# Handoff\r\n\r\n**Goal:** finish the eviction rules\r\n\r\nCarried from session `session-a`.\r\n\r\n## Files\r\n\r\n- `src/a.ts`: read\r\n- `b`c`: x\r\n",
		"# Handoff\r**Goal:** x\rCarried from session `a`\r## Facts\r- 😀…[truncated]\r## Bounds applied\r- 2 entries were cut to 512 bytes and marked with …[truncated]",
		"---\ngoal: x\n---\n# Handoff\n\n**Goal:** continue\n\n## Decisions\n\n- a: b _(settled)_\n  - nested\n    ```\n    code\n    ```\n1. x\n\n```\n## Facts\n```\n\nFiles\n-----\n\n- `x`:\n",
		"# Handoff\n\n**Goal:**\n\n### dropped (not in this session's read ledger)\n\n-\n- ``\n- `a`:b\n## Bounds applied\n\n- facts: kept 1 of 0; the rest were dropped by the facts bound\n- files: kept 3 of 9; the rest were dropped by the facts bound",
		"# Handoff\n\n> **Goal:** quoted\n\n    Carried from session `code`.\n\n## Commands\n- `a`: b\n\n  continued\n\n<!-- comment -->\n\n## Commands\n",
	}
	err := filepath.WalkDir("testdata", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".txtar") {
			return err
		}
		ar, err := txtar.ParseFile(path)
		if err != nil {
			return err
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".md") {
				seeds = append(seeds, string(f.Data))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, hc := range namedCases() {
		doc, _ := hc.build()
		seeds = append(seeds, doc)
	}
	return seeds
}

func fuzzLedger() *session.Ledger {
	return &session.Ledger{SessionID: "session-a", Cwd: "/work/repo",
		Paths: map[string][]session.Evidence{"src/a.ts": {{Tool: "read"}}, "src/b.ts": {{Tool: "edit"}}, ".": {{Tool: "grep"}}},
		Board: []session.Decision{{Key: "test_runner", Label: "Test runner", Value: "vitest"}, {Key: "a", Value: "b"}}}
}

// FuzzParse: the handoff parser never panics and every span of its model
// lies inside the text with Start ≤ End; the analyzer (with a ledger)
// reports spans inside the text, and every fix applies on its own.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	reg, err := analysis.NewRegistry(handoff.Analyzer)
	if err != nil {
		f.Fatal(err)
	}
	l := fuzzLedger()
	env := analysis.Env{handoff.EnvLedger: handoff.Resolver(func(string) handoff.Lookup { return handoff.Lookup{Ledger: l} })}
	f.Fuzz(func(t *testing.T, text string) {
		doc := markdown.Parse("f.md", text)
		d := handoff.Parse(doc)
		in := func(what string, s markdown.Span) {
			if s.Start < 0 || s.Start > s.End || s.End > len(text) {
				t.Fatalf("%s: span %v outside the text (%d bytes)", what, s, len(text))
			}
		}
		in("title", d.Title)
		in("goal", d.GoalSpan)
		in("goal line", d.GoalLine)
		in("session", d.SessionSpan)
		in("session line", d.SessionLine)
		if d.HasGoal() && (d.GoalSpan.Start < d.GoalLine.Start || d.GoalSpan.End > d.GoalLine.End) {
			t.Fatalf("goal %v outside its line %v", d.GoalSpan, d.GoalLine)
		}
		for _, s := range d.Sections {
			in("section", s.Span)
			in("body", s.Body)
			in("heading", s.Heading.Span)
			for _, sp := range s.Stray {
				in("stray", sp)
			}
			for _, it := range s.Items {
				for what, sp := range map[string]markdown.Span{"item": it.Span, "text": it.TextSpan, "path": it.PathSpan, "why": it.WhySpan,
					"summary": it.SummarySpan, "rationale": it.RationaleSpan, "settled": it.SettledSpan} {
					in(what, sp)
				}
				if it.Span.Start < s.Span.Start || it.Span.End > s.Span.End {
					t.Fatalf("item %v outside its section %v", it.Span, s.Span)
				}
				if text[it.TextSpan.Start:it.TextSpan.End] != it.Text {
					t.Fatalf("item text %q is not its span's %q", it.Text, text[it.TextSpan.Start:it.TextSpan.End])
				}
				for _, fl := range it.Strings() {
					in(fl.What, fl.Span)
					if text[fl.Span.Start:fl.Span.End] != fl.Text {
						t.Fatalf("%s %q is not its span's text", fl.What, fl.Text)
					}
				}
			}
		}
		if doc.Kind != markdown.KindHandoff {
			return
		}
		res := reg.AnalyzeEnv(doc, nil, env)
		for _, fd := range res.Findings {
			in(fd.Rule, fd.Span)
			for _, fx := range fd.Fixes {
				if _, err := analysis.ApplyEdits(text, fx.Edits); err != nil {
					t.Fatalf("%s: fix %q: %v", fd.Rule, fx.Title, err)
				}
			}
		}
	})
}
