package markdown

import (
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// pseudoHeadings finds the lines of the document's top-level paragraphs
// that specrew's section parser (Get-InteractionModelSectionMap in
// extensions/specrew-speckit/scripts/shared-governance.ps1) reads as a
// packet section's heading: the whole trimmed line is a section title, in
// any case, optionally after one to six "#" and wrapped in "**"
// ("**What I just did**", "What needs your review", "#Why I stopped").
// Markdown headings are in Headings already; code, quotes and lists are
// not the message's own sections.
func pseudoHeadings(d *Document) []Heading {
	var out []Heading
	for n := d.Root.FirstChild(); n != nil; n = n.NextSibling() {
		p, ok := n.(*ast.Paragraph)
		if !ok {
			continue
		}
		lines := p.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			line := d.Source[seg.Start:seg.Stop]
			idx, inner := pseudoTitle(line)
			if idx < 0 {
				continue
			}
			ln := d.Lines.LineOf(seg.Start)
			out = append(out, Heading{
				Level:  7,
				Text:   string(line[inner.Start:inner.End]),
				Span:   Span{Start: d.Lines.LineStart(ln), End: d.Lines.LineEnd(ln)},
				Inner:  Span{Start: seg.Start + inner.Start, End: seg.Start + inner.End},
				Pseudo: true,
				Packet: idx,
			})
		}
	}
	return out
}

// pseudoTitle is specrew's heading pattern,
// ^(?:#{1,6}\s*)?(?:\*\*)?(TITLE)(?:\*\*)?\s*$ over the trimmed line,
// without a regular expression: every paragraph line of a document is
// asked. It returns the section's index and the title's bytes in line, or
// -1.
func pseudoTitle(line []byte) (int, Span) {
	start, end := 0, len(line)
	for start < end && isSpace(line[start]) {
		start++
	}
	for end > start && isSpace(line[end-1]) {
		end--
	}
	// The longest title is 20 bytes; with "######", a space and "****"
	// around it, no line past 40 bytes is one.
	if end-start > 40 || end-start < 13 {
		return -1, Span{}
	}
	hashes := 0
	for start < end && line[start] == '#' {
		start++
		hashes++
	}
	if hashes > 6 {
		return -1, Span{}
	}
	if hashes > 0 {
		for start < end && isSpace(line[start]) {
			start++
		}
	}
	if end-start >= 2 && line[start] == '*' && line[start+1] == '*' {
		start += 2
	}
	if end-start >= 2 && line[end-1] == '*' && line[end-2] == '*' {
		end -= 2
	}
	title := string(line[start:end])
	for i, h := range PacketHeadings {
		if strings.EqualFold(title, h) {
			return i, Span{Start: start, End: end}
		}
	}
	return -1, Span{}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// AllHeadings is the document's headings and its pseudo-headings
// (PseudoHeadings) in document order.
func (d *Document) AllHeadings() []Heading {
	if len(d.PseudoHeadings) == 0 {
		return d.Headings
	}
	all := append(slices.Clone(d.Headings), d.PseudoHeadings...)
	slices.SortFunc(all, func(a, b Heading) int { return a.Span.Start - b.Span.Start })
	return all
}
