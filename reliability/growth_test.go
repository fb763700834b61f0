package reliability

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/engine"
)

// growthShapes are the documents shaped to be slow, each as a function of
// a size; the size is what the shape's cost grew with before it was
// bounded (a depth, a count of markers). Each size must be past the
// shape's cap, where the cap takes effect.
var growthShapes = []struct {
	name string
	base int
	gen  func(n int) string
}{
	{"list items each indented two spaces more", 300, func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat("  ", i))
			b.WriteString("- item\n")
		}
		return b.String()
	}},
	{"ordered items each indented three columns more", 200, func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat("   ", i))
			b.WriteString("1. item\n")
		}
		return b.String()
	}},
	{"block quotes within list items, one more a line", 250, func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat("  ", i))
			b.WriteString("- > item\n")
		}
		return b.String()
	}},
	{"- - - … x on one line", 2_000, func(n int) string { return strings.Repeat("- ", n) + "x\n" }},
	{"> > > … x on each line", 300, func(n int) string {
		return strings.Repeat(strings.Repeat("> ", n)+"x\n", 50)
	}},
}

// TestGrowthIsLinear analyses each slow shape at 1×, 2× and 4× its base
// size and fails when the time per byte at 4× is more than maxPerByte
// times that at 1×: linear work keeps it flat, and the shapes fixed so
// far were quadratic or cubic in their size (a ratio of 3 to 7 before
// their caps). The times come from testing.Benchmark, the best of five,
// so that a busy machine does not fail the test; a ratio, not a time, is
// asserted.
func TestGrowthIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("measures times: not with -short")
	}
	const maxPerByte = 2.0
	// A twentieth of a second a measure, not a second: 75 of them.
	bt := flag.Lookup("test.benchtime")
	old := bt.Value.String()
	if err := bt.Value.Set("50ms"); err != nil {
		t.Fatal(err)
	}
	defer bt.Value.Set(old)
	reg := engine.Registry()
	for _, s := range growthShapes {
		t.Run(s.name, func(t *testing.T) {
			ratio, report := growth(reg, s.base, s.gen)
			t.Log(report)
			if ratio > maxPerByte {
				// Measured again before failing: a machine busy for the
				// whole of one 4× measure is not a slow shape.
				ratio, report = growth(reg, s.base, s.gen)
			}
			if ratio > maxPerByte {
				t.Errorf("time per byte grew %.1f× from 1× to 4× the size, twice (at most %.1f× is linear enough):\n%s", ratio, maxPerByte, report)
			}
		})
	}
}

// growth analyses gen(base), gen(2*base) and gen(4*base), and returns how
// many times the time per byte at 4× is that at 1×, and the figures.
func growth(reg *analysis.Registry, base int, gen func(int) string) (float64, string) {
	var perByte [3]float64
	var report []string
	for k, mult := range []int{1, 2, 4} {
		text := gen(base * mult)
		best := 0.0
		for range 5 {
			r := testing.Benchmark(func(b *testing.B) {
				for b.Loop() {
					reg.Analyze(analysis.Parse("shape.md", text), nil)
				}
			})
			if ns := float64(r.NsPerOp()); best == 0 || ns < best {
				best = ns
			}
		}
		perByte[k] = best / float64(len(text))
		report = append(report, fmt.Sprintf("%d× (%d bytes): %.2f ms, %.1f ns/byte", mult, len(text), best/1e6, perByte[k]))
	}
	return perByte[2] / perByte[0], strings.Join(report, "; ")
}

// Lists nest across lines up to the cap and no deeper; a list of ordinary
// depth is read as it is written.
func TestNestingDepthBounded(t *testing.T) {
	depth := func(text string) int {
		deepest := 0
		var walk func(n ast.Node, d int)
		walk = func(n ast.Node, d int) {
			if _, ok := n.(*ast.List); ok {
				d++
				deepest = max(deepest, d)
			}
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				walk(c, d)
			}
		}
		walk(analysis.Parse("x.md", text).Root, 0)
		return deepest
	}
	gen := growthShapes[0].gen
	if got := depth(gen(12)); got != 12 {
		t.Errorf("12 nested list items: depth %d, want 12", got)
	}
	if got, want := depth(gen(500)), analysis.MaxNestingIndent/2+1; got != want {
		t.Errorf("500 nested list items: depth %d, want the cap, %d", got, want)
	}
}

// A document the nesting caps cut says so, once, where the cut is: a
// baton/nesting-too-deep finding at the first marker read as text. A list
// of ordinary depth gets none; the finding's severity is configurable.
func TestNestingCutSaysSo(t *testing.T) {
	reg := engine.Registry()
	findings := func(text string, cfg *analysis.Config) []analysis.Finding {
		var out []analysis.Finding
		for _, f := range reg.Analyze(analysis.Parse("x.md", text), cfg).Findings {
			if f.Rule == analysis.RuleNestingTooDeep.ID {
				out = append(out, f)
			}
		}
		return out
	}
	gen := growthShapes[0].gen
	if got := findings(gen(12), nil); len(got) != 0 {
		t.Errorf("12 nested list items: %v, want no cut", got)
	}
	text := gen(500)
	got := findings(text, nil)
	if len(got) != 1 || got[0].Severity != analysis.Warning {
		t.Fatalf("500 nested list items: %v, want one warning", got)
	}
	at, ok := analysis.Parse("x.md", text).NestingCutAt()
	if !ok || got[0].Span.Start != at || !strings.Contains(got[0].Message, "checked only as so cut") {
		t.Errorf("the finding %+v, want it at the cut %d", got[0], at)
	}
	// The marker cut is the first past column MaxNestingIndent.
	line := text[strings.LastIndexByte(text[:at], '\n')+1 : at]
	if len(line) <= analysis.MaxNestingIndent || strings.TrimLeft(line, " ") != "" {
		t.Errorf("cut at column %d, want the first marker past %d", len(line), analysis.MaxNestingIndent)
	}
	// On one line: 40 markers.
	if got := findings(strings.Repeat("- ", 40)+"x\n", nil); len(got) != 1 || got[0].Span.Start != 2*analysis.MaxLineNesting {
		t.Errorf("40 markers on one line: %v, want one at offset %d", got, 2*analysis.MaxLineNesting)
	}
	off := &analysis.Config{Severity: map[string]analysis.Severity{analysis.RuleNestingTooDeep.ID: analysis.Off}}
	if got := findings(text, off); len(got) != 0 {
		t.Errorf("configured off: %v", got)
	}
}
