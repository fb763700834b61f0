package analysis_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// DiffEdit's one edit turns old into new, and never cuts a UTF-8
// sequence (the edge converts its span to UTF-16).
func FuzzDiffEdit(f *testing.F) {
	f.Add("## Why I Stopped\n", "### Why I Stopped\n")
	f.Add("é😀x", "é😁x")
	f.Add("same", "same")
	f.Add("", "new")
	f.Fuzz(func(t *testing.T, old, new string) {
		edits := analysis.DiffEdit(old, new)
		if old == new {
			if len(edits) != 0 {
				t.Fatalf("edits for equal texts: %+v", edits)
			}
			return
		}
		got, err := analysis.ApplyEdits(old, edits)
		if err != nil || got != new {
			t.Fatalf("DiffEdit(%q, %q) = %+v gives %q, %v", old, new, edits, got, err)
		}
		if utf8.ValidString(old) {
			for _, at := range []int{edits[0].Span.Start, edits[0].Span.End} {
				if at < len(old) && !utf8.RuneStart(old[at]) {
					t.Fatalf("DiffEdit(%q, %q) cuts a UTF-8 sequence at %d", old, new, at)
				}
			}
		}
	})
}

// fixRegistry reports every line "bad" with no fix and every line "low"
// with a safe fix to "LOW", beside the limit rules.
func fixRegistry(t *testing.T) *analysis.Registry {
	t.Helper()
	bad := &analysis.Rule{ID: "test/bad", Summary: "bad", Doc: "bad", Severity: analysis.Warning}
	low := &analysis.Rule{ID: "test/low", Summary: "low", Doc: "low", Severity: analysis.Warning}
	reg, err := analysis.NewRegistry(analysis.LimitsAnalyzer, &analysis.Analyzer{
		Name:  "test",
		Kind:  markdown.KindOther,
		Rules: []*analysis.Rule{bad, low},
		Run: func(p *analysis.Pass) any {
			at := 0
			for line := range strings.Lines(p.Doc.Text) {
				span := markdown.Span{Start: at, End: at + len(strings.TrimSuffix(line, "\n"))}
				switch strings.TrimSpace(line) {
				case "bad":
					p.Report(bad, span, "bad")
				case "low":
					p.Report(low, span, "lower case", analysis.WithFix(analysis.Fix{Title: "upper", Safe: true,
						Edits: []analysis.Edit{{Span: span, NewText: "LOW"}}}))
				}
				at += len(line)
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// The cap on findings is on what is reported: fixing all applies the safe
// fixes of the findings past it too, and the result counts every finding
// left, those past the cap included.
func TestFixAllPastTheFindingsCap(t *testing.T) {
	reg := fixRegistry(t)
	analyze := func(cfg *analysis.Config) func(string) *analysis.Result {
		return func(text string) *analysis.Result { return reg.Analyze(markdown.Parse("x.md", text), cfg) }
	}
	// The unfixable findings fill the reported ones; the fixable come after.
	bads := analysis.MaxFindings + 500
	text := strings.Repeat("bad\n", bads) + strings.Repeat("low\n", 1200)
	before := analyze(nil)(text)
	if got := before.Count(); got != bads+1200 {
		t.Errorf("Count() = %d, want %d", got, bads+1200)
	}
	res, fx := analysis.FixAllCount(analyze(nil), text)
	if want := strings.Repeat("bad\n", bads) + strings.Repeat("LOW\n", 1200); res.Doc.Text != want {
		t.Errorf("%d of 1200 lines fixed", strings.Count(res.Doc.Text, "LOW"))
	}
	if fx.Fixed != 1200 || fx.Unapplied != 0 {
		t.Errorf("fixing = %+v, want 1200 fixed and none left", fx)
	}
	if len(res.Findings) != analysis.MaxFindings+1 || res.Count() != bads {
		t.Errorf("%d findings reported, %d counted; want %d and the one counting the rest, %d", len(res.Findings), res.Count(), analysis.MaxFindings, bads)
	}
	// Set off, the finding counting the rest is not reported; the rest are
	// still counted, and fixed.
	off := &analysis.Config{Severity: map[string]analysis.Severity{analysis.RuleTooManyFindings.ID: analysis.Off}}
	res, fx = analysis.FixAllCount(analyze(off), text)
	if fx.Fixed != 1200 || len(res.Findings) != analysis.MaxFindings || res.Count() != bads {
		t.Errorf("too-many-findings off: %d fixed, %d findings reported, %d counted", fx.Fixed, len(res.Findings), res.Count())
	}
	if got := len(before.SafeFixEdits()); got != 1200 {
		t.Errorf("SafeFixEdits() has %d edits, want 1200", got)
	}
}

// A fix that never settles is applied MaxFixRounds times; FixAllCount says
// how many safe fixes another run would apply.
func TestFixAllCountUnapplied(t *testing.T) {
	grow := &analysis.Rule{ID: "test/grow", Summary: "grow", Doc: "grow", Severity: analysis.Warning}
	reg, err := analysis.NewRegistry(&analysis.Analyzer{
		Name: "grow", Kind: markdown.KindOther, Rules: []*analysis.Rule{grow},
		Run: func(p *analysis.Pass) any {
			end := markdown.Span{Start: len(p.Doc.Text), End: len(p.Doc.Text)}
			p.Report(grow, end, "never enough", analysis.WithFix(analysis.Fix{Title: "grow", Safe: true, Edits: []analysis.Edit{{Span: end, NewText: "!"}}}))
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	res, fx := analysis.FixAllCount(func(text string) *analysis.Result { return reg.Analyze(markdown.Parse("x.md", text), nil) }, "a")
	if res.Doc.Text != "a"+strings.Repeat("!", analysis.MaxFixRounds) || fx.Fixed != analysis.MaxFixRounds || fx.Unapplied != 1 {
		t.Errorf("text %q, fixing %+v; want %d rounds applied and 1 fix left", res.Doc.Text, fx, analysis.MaxFixRounds)
	}
}

// SafeFixEdits takes what checking each fix against every edit taken
// before would take, in any order of spans: random ones, insertions
// included, and a descending run of many.
func TestSafeFixEditsAgreesWithPairwise(t *testing.T) {
	const textLen = 300
	rnd := rand.New(rand.NewPCG(1, 2))
	span := func() markdown.Span {
		s := rnd.IntN(textLen + 1)
		return markdown.Span{Start: s, End: min(textLen, s+rnd.IntN(4))}
	}
	for trial := range 200 {
		var findings []analysis.Finding
		for range 1 + rnd.IntN(150) {
			var edits []analysis.Edit
			for range 1 + rnd.IntN(3) {
				edits = append(edits, analysis.Edit{Span: span(), NewText: "x"})
			}
			findings = append(findings, analysis.Finding{Rule: "a/b", Fixes: []analysis.Fix{{Safe: true, Edits: edits}}})
		}
		if got, want := analysis.SafeFixEdits(strings.Repeat(".", textLen), findings), pairwise(findings); !slices.Equal(got, want) {
			t.Fatalf("trial %d: edits\n%v\nwant\n%v", trial, got, want)
		}
	}
	var findings []analysis.Finding
	for i := 2000; i >= 0; i-- {
		for _, sp := range []markdown.Span{{Start: i, End: i + 1}, {Start: i, End: i}, {Start: i, End: i + 1}} {
			findings = append(findings, analysis.Finding{Rule: "a/b", Fixes: []analysis.Fix{{Safe: true, Edits: []analysis.Edit{{Span: sp, NewText: "y"}}}}})
		}
	}
	if got, want := analysis.SafeFixEdits(strings.Repeat(".", 2001), findings), pairwise(findings); !slices.Equal(got, want) {
		t.Fatalf("descending: %d edits, want %d", len(got), len(want))
	}
}

// pairwise is SafeFixEdits checking each fix against every edit taken.
func pairwise(findings []analysis.Finding) []analysis.Edit {
	overlaps := func(a, b markdown.Span) bool { return a.Start < b.End && b.Start < a.End || a == b }
	var taken []analysis.Edit
	for _, f := range findings {
		edits := f.Fixes[0].Edits
		fits := true
		for i, e := range edits {
			for _, o := range taken {
				fits = fits && !overlaps(e.Span, o.Span)
			}
			for _, o := range edits[:i] {
				fits = fits && !overlaps(e.Span, o.Span)
			}
		}
		if fits {
			taken = append(taken, edits...)
		}
	}
	return taken
}
