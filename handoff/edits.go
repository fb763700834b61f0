package handoff

import (
	"slices"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// lineBreak is the document's line break: CRLF when it uses them.
func lineBreak(doc *markdown.Document) string {
	if strings.Contains(doc.Text, "\r\n") {
		return "\r\n"
	}
	return "\n"
}

// trimmedEnd is where the text before end stops, without trailing white
// space, but not before start.
func (c *checker) trimmedEnd(start, end int) int {
	return max(start, start+len(strings.TrimRight(c.doc.Text[start:end], " \t\r\n")))
}

// last reports whether s is the last section of the document.
func (c *checker) last(s *Section) bool {
	return s == c.d.Sections[len(c.d.Sections)-1]
}

// removeSection deletes a section, heading and all, with the blank lines
// that separate it from the next one (or, for the last section, from the
// one before), so the document keeps one blank line between sections and
// its final line break.
func (c *checker) removeSection(s *Section) analysis.Edit {
	if !c.last(s) {
		return analysis.Edit{Span: s.Span}
	}
	start := c.trimmedEnd(0, s.Span.Start)
	end := c.trimmedEnd(s.Span.Start, s.Span.End)
	if start == 0 {
		start = s.Span.Start
	}
	return analysis.Edit{Span: markdown.Span{Start: start, End: end}}
}

// removeItem deletes an item's lines, line break included.
func (c *checker) removeItem(it *Item) analysis.Edit {
	e, _ := c.removeItemAfter(it, -1)
	return e
}

// removeItemAfter is removeItem given hint, a line at or before the item's
// first (-1 when none is known; a wrong one only costs a search), so that
// removing a run of items finds each one's lines from the last one's. It
// returns the item's last line, the hint for the next item.
func (c *checker) removeItemAfter(it *Item, hint int) (analysis.Edit, int) {
	lines := c.doc.Lines
	first := lineOf(lines, hint, it.Span.Start)
	last := lineOf(lines, first, it.Span.End)
	end := len(c.doc.Text)
	if last+1 < lines.LineCount() {
		end = lines.LineStart(last + 1)
	}
	return analysis.Edit{Span: markdown.Span{Start: lines.LineStart(first), End: end}}, last
}

// appendItem adds an item line (the marker included) at the end of a
// section's items, or under its heading when it has none.
func (c *checker) appendItem(s *Section, line string) analysis.Edit {
	if n := len(s.Items); n > 0 {
		at := s.Items[n-1].Span.End
		return analysis.Edit{Span: markdown.Span{Start: at, End: at}, NewText: c.nl + line}
	}
	at := c.trimmedEnd(s.Heading.Span.End, s.Span.End)
	return analysis.Edit{Span: markdown.Span{Start: at, End: at}, NewText: c.nl + c.nl + line}
}

// insertSection adds a block (a heading and its items, no trailing line
// break) before the section heading that starts at offset at, or at the
// end of the document when at is its length.
func (c *checker) insertSection(at int, block string) analysis.Edit {
	text := c.doc.Text
	if at >= len(text) {
		end := c.trimmedEnd(0, len(text))
		if end == 0 {
			return analysis.Edit{Span: markdown.Span{Start: 0, End: 0}, NewText: block + c.nl}
		}
		return analysis.Edit{Span: markdown.Span{Start: end, End: end}, NewText: c.nl + c.nl + block}
	}
	prefix := ""
	if before := text[:at]; at > 0 && !strings.HasSuffix(before, "\n\n") && !strings.HasSuffix(before, "\r\n\r\n") {
		prefix = c.nl
	}
	return analysis.Edit{Span: markdown.Span{Start: at, End: at}, NewText: prefix + block + c.nl + c.nl}
}

// sectionEnd is where a section that is absent would be inserted so that
// it comes right before the first present section that follows it in
// render order (the document's end when none does).
func (c *checker) sectionEnd(name string) int {
	idx := slices.Index(sectionNames[:], name)
	for _, s := range c.d.Sections {
		if s.Known && s.Index > idx {
			return s.Span.Start
		}
	}
	return len(c.doc.Text)
}

// fit keeps an insertion from landing inside a deletion of the same fix
// (a section added at the end of the document, after lines being
// removed there): it moves it to the deletion's start, which is a line
// start, as lines of its own.
func (c *checker) fit(ins analysis.Edit, dels ...analysis.Edit) analysis.Edit {
	if ins.Span.Len() != 0 {
		return ins
	}
	for _, d := range dels {
		if d.Span.Start < ins.Span.Start && ins.Span.Start < d.Span.End {
			return analysis.Edit{Span: markdown.Span{Start: d.Span.Start, End: d.Span.Start},
				NewText: c.nl + strings.TrimLeft(ins.NewText, "\r\n") + c.nl}
		}
	}
	return ins
}
