package analysis

import (
	"strings"

	"github.com/baton-md/baton/markdown"
)

// Removal is the edit that deletes span of doc; when span is its line's only
// content, the whole line goes, with one blank line beside it when that
// leaves no gap behind and still a blank line (or the document's edge)
// between the lines around it: text that a blank line kept apart, such as
// an HTML block and a heading after it, is never joined.
func Removal(doc *markdown.Document, span markdown.Span) Edit {
	lines := doc.Lines
	line := lines.LineOf(span.Start)
	if strings.TrimSpace(lines.Line(line)) != doc.String(span) {
		return Edit{Span: span}
	}
	n := lines.LineCount()
	blank := func(l int) bool { return l >= 0 && l < n && strings.TrimSpace(lines.Line(l)) == "" }
	// The line is the text's last when only an empty line (after its line
	// break) follows.
	last := line+1 >= n || line+2 == n && lines.Line(line+1) == ""
	start, end := lines.LineStart(line), lines.LineEnd(line)
	if line+1 < n {
		end = lines.LineStart(line + 1)
	}
	switch {
	case blank(line+1) && line+2 < n && (line == 0 || blank(line-1)):
		end = lines.LineStart(line + 2) // and the blank line after it
	case blank(line-1) && last:
		start = lines.LineStart(line - 1) // and the blank line before it
	}
	return Edit{Span: markdown.Span{Start: start, End: end}}
}
