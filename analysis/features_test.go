package analysis_test

import (
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// Headings nest by level; each covers its section up to the next heading of
// its level or above, trailing blank lines left out.
func TestHeadingSymbols(t *testing.T) {
	doc := markdown.Parse("notes.md", "# A\n\ntext\n\n## B\n\nmore\n\n# C\n\nlast\n\n")
	syms := analysis.HeadingSymbols(doc)
	if len(syms) != 2 || syms[0].Name != "A" || syms[1].Name != "C" {
		t.Fatalf("symbols = %+v", syms)
	}
	if got := doc.String(syms[0].Span); got != "# A\n\ntext\n\n## B\n\nmore" {
		t.Errorf("A covers %q", got)
	}
	if k := syms[0].Children; len(k) != 1 || k[0].Name != "B" || doc.String(k[0].Selection) != "## B" {
		t.Errorf("children of A = %+v", k)
	}
	if secs := doc.HeadingSections(); len(secs) != 3 || secs[2].End != len(doc.Text) {
		t.Errorf("sections = %v", secs)
	}
}

func TestEscapeCell(t *testing.T) {
	if got := analysis.EscapeCell("a|b"); got != `a\|b` {
		t.Errorf("EscapeCell = %q", got)
	}
}
