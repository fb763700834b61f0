package handoff_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
	"github.com/google/go-cmp/cmp"
)

const featureDoc = "# Handoff\n\n**Goal:** finish the eviction rules\n\nCarried from session `session-a`.\n\n## Files\n\n- `src/a.ts`: read here\n- `src/gone.ts`: never read\n- `"

func featureResult(t *testing.T, text string, paths map[string][]session.Evidence) *analysis.Result {
	t.Helper()
	reg, err := analysis.NewRegistry(handoff.Analyzer)
	if err != nil {
		t.Fatal(err)
	}
	env := analysis.Env{handoff.EnvLedger: handoff.Resolver(func(id string) handoff.Lookup {
		return handoff.Lookup{Ledger: &session.Ledger{SessionID: id, File: "/s/current.jsonl", Paths: paths}}
	})}
	res := reg.AnalyzeEnv(markdown.Parse("handoff.md", text), nil, env)
	if handoff.ModelOf(res) == nil {
		t.Fatal("no handoff model")
	}
	return res
}

func TestHover(t *testing.T) {
	paths := map[string][]session.Evidence{
		"src/a.ts":     {{Tool: "read", TurnID: "a1", Timestamp: "2026-01-02T14:02:11Z", Line: 42}},
		"src/gone2.ts": {{Tool: "read", Line: 3}},
	}
	res := featureResult(t, featureDoc, paths)
	at := func(sub string, n int) int { return strings.Index(featureDoc, sub) + n }
	for _, c := range []struct {
		off       int
		span      string
		substring string
	}{
		{at("finish", 2), "**Goal:** finish the eviction rules", "**Goal** (25 characters)"},
		{at("src/a.ts", 2), "src/a.ts", "- read by `read`, turn a1, 14:02:11, current.jsonl line 42"},
		{at("src/gone.ts", 2), "src/gone.ts", "was **never touched by session session-a**. Nearest paths in its ledger: `src/gone2.ts`"},
		{at("## Files", 4), "## Files", "**Files**: at most"},
	} {
		hs := handoff.Hover(res, c.off)
		if len(hs) != 1 {
			t.Errorf("hover at %d = %+v, want one part", c.off, hs)
			continue
		}
		if got := featureDoc[hs[0].Span.Start:hs[0].Span.End]; got != c.span {
			t.Errorf("hover at %d spans %q, want %q", c.off, got, c.span)
		}
		if !strings.Contains(hs[0].Markdown, c.substring) {
			t.Errorf("hover at %d = %q, want it to hold %q", c.off, hs[0].Markdown, c.substring)
		}
	}
	if hs := handoff.Hover(res, at("Carried", 2)); hs != nil {
		t.Errorf("hover on plain text = %+v, want none", hs)
	}
}

// In ## Files, after "- `", the ledger's paths not listed yet are offered,
// sorted, each closing the backtick.
func TestCompleteLedgerPaths(t *testing.T) {
	paths := map[string][]session.Evidence{"src/a.ts": nil, "src/z.ts": nil, "lib/b.ts": nil, ".": nil}
	res := featureResult(t, featureDoc+"\n", paths)
	end := len(featureDoc)
	c := handoff.Complete(res, end)
	if c == nil {
		t.Fatal("no completion in a Files item")
	}
	item := func(p string) analysis.CompletionItem {
		return analysis.CompletionItem{Label: p, Kind: analysis.CompleteFile, Detail: "in the session's read ledger",
			Edit: analysis.Edit{Span: markdown.Span{Start: end, End: end}, NewText: p + "`: "}}
	}
	want := &analysis.Completion{Items: []analysis.CompletionItem{item("lib/b.ts"), item("src/z.ts")}}
	if d := cmp.Diff(want, c); d != "" {
		t.Errorf("completion (-want +got):\n%s", d)
	}
	if c := handoff.Complete(res, strings.Index(featureDoc, "Carried")); c != nil {
		t.Errorf("completion outside Files = %+v, want none", c)
	}
}

// On the last line of a document with no final newline, the cursor at
// its very end, the same paths are offered.
func TestCompleteLedgerPathsNoFinalNewline(t *testing.T) {
	paths := map[string][]session.Evidence{"src/a.ts": nil, "src/z.ts": nil, "lib/b.ts": nil}
	for _, typed := range []string{"", "src"} {
		text := featureDoc + typed
		c := handoff.Complete(featureResult(t, text, paths), len(text))
		if c == nil {
			t.Fatalf("after %q at the end of the document: no completion", typed)
		}
		var labels []string
		for _, it := range c.Items {
			labels = append(labels, it.Label)
			if it.Edit.Span != (markdown.Span{Start: len(featureDoc), End: len(text)}) {
				t.Errorf("after %q: the edit replaces %v, want what was typed", typed, it.Edit.Span)
			}
		}
		want := []string{"lib/b.ts", "src/z.ts"}
		if typed == "src" {
			want = []string{"src/z.ts"}
		}
		if !slices.Equal(labels, want) {
			t.Errorf("after %q: %q, want %q", typed, labels, want)
		}
	}
}

// Past MaxPathItems paths the offer is cut and marked incomplete.
func TestCompleteLedgerPathsIncomplete(t *testing.T) {
	paths := map[string][]session.Evidence{}
	for i := range handoff.MaxPathItems + 5 {
		paths["p/"+strings.Repeat("x", i+1)] = nil
	}
	c := handoff.Complete(featureResult(t, featureDoc+"\n", paths), len(featureDoc))
	if c == nil {
		t.Fatal("no completion in a Files item")
	}
	if !c.Incomplete || len(c.Items) != handoff.MaxPathItems {
		t.Errorf("completion: incomplete %v, %d items, want true, %d", c.Incomplete, len(c.Items), handoff.MaxPathItems)
	}
}
