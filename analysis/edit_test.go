package analysis_test

import (
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// TestRemoval: a line of its own goes with one blank line beside it, but
// only where a blank line (or the text's edge) still parts the lines around
// it; a span sharing its line goes alone.
func TestRemoval(t *testing.T) {
	const m = "<!-- x -->"
	for _, c := range []struct{ name, text, want string }{
		{"blank on both sides: the one after goes", "A\n\n" + m + "\n\nB\n", "A\n\nB\n"},
		{"blank before only: the line alone (A and B stay apart)", "<A>\n\n" + m + "\n# B\n", "<A>\n\n# B\n"},
		{"blank after only: the line alone", "A\n" + m + "\n\nB\n", "A\n\nB\n"},
		{"no blank beside it", "A\n" + m + "\nB\n", "A\nB\n"},
		{"first line, blank after", m + "\n\nB\n", "B\n"},
		{"last line, blank before", "A\n\n" + m + "\n", "A\n"},
		{"last line without a line break, blank before", "A\n\n" + m, "A\n"},
		{"only line", m + "\n", ""},
		{"sharing its line", "A " + m + " B\n", "A  B\n"},
		{"CRLF, blank on both sides", "A\r\n\r\n" + m + "\r\n\r\nB\r\n", "A\r\n\r\nB\r\n"},
	} {
		doc := markdown.Parse("a.md", c.text)
		start := strings.Index(c.text, m)
		e := analysis.Removal(doc, markdown.Span{Start: start, End: start + len(m)})
		got, err := analysis.ApplyEdits(c.text, []analysis.Edit{e})
		if err != nil || got != c.want {
			t.Errorf("%s: %q -> %q (%v), want %q", c.name, c.text, got, err, c.want)
		}
	}
}
