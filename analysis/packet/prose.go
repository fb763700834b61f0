package packet

import (
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/yuin/goldmark/ast"
)

// prose is the document's text with everything that is not the author's
// own prose blanked out (code, HTML, block quotes, link destinations), byte
// for byte, so that phrase matches keep their offsets.
func prose(doc *analysis.Document) []byte {
	b := []byte(doc.Text)
	blank := func(start, end int) {
		for i := max(start, 0); i < min(end, len(b)); i++ {
			if b[i] != '\n' && b[i] != '\r' {
				b[i] = ' '
			}
		}
	}
	blankLines := func(first, last int) { // whole lines, by line number
		blank(doc.Lines.LineStart(first), doc.Lines.LineEnd(last))
	}
	if fm := doc.FrontMatter; fm != nil {
		blank(fm.Span.Start, fm.Span.End)
	}
	_ = ast.Walk(doc.Root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock, *ast.Blockquote:
			if s, ok := blockSpan(n); ok {
				first, last := doc.Lines.LineOf(s.Start), doc.Lines.LineOf(max(s.End-1, s.Start))
				if fc, ok := n.(*ast.FencedCodeBlock); ok {
					first, last = fenceLines(doc, fc, first, last)
				}
				if hb, ok := n.(*ast.HTMLBlock); ok && hb.HasClosure() {
					last = max(last, doc.Lines.LineOf(hb.ClosureLine.Start))
				}
				blankLines(first, last)
			} else if fc, ok := n.(*ast.FencedCodeBlock); ok && fc.Info != nil {
				l := doc.Lines.LineOf(fc.Info.Segment.Start)
				blankLines(l, min(l+1, doc.Lines.LineCount()-1))
			}
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan:
			if s, ok := blockSpan(n); ok {
				blank(s.Start-1, s.End+1) // and the backticks next to it
			}
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			for i := 0; i < n.Segments.Len(); i++ {
				blank(n.Segments.At(i).Start, n.Segments.At(i).Stop)
			}
		}
		return ast.WalkContinue, nil
	})
	// Link destinations: "](…)" up to the closing parenthesis on that line.
	for i := 0; i+1 < len(b); i++ {
		if b[i] != ']' || b[i+1] != '(' {
			continue
		}
		j := i + 2
		for j < len(b) && b[j] != ')' && b[j] != '\n' {
			j++
		}
		if j < len(b) && b[j] == ')' {
			blank(i+1, j+1)
			i = j
		}
	}
	return b
}

// fenceLines widens a fenced block's content lines to its fences.
func fenceLines(doc *analysis.Document, fc *ast.FencedCodeBlock, first, last int) (int, int) {
	if first > 0 {
		first--
	}
	if last+1 < doc.Lines.LineCount() {
		t := strings.TrimSpace(doc.Lines.Line(last + 1))
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			last++
		}
	}
	return first, last
}

// blockSpan is the extent of a node's own text: the segments of its lines
// and of its descendants' text.
func blockSpan(n ast.Node) (analysis.Span, bool) {
	s := analysis.Span{Start: -1}
	add := func(start, stop int) {
		if s.Start < 0 || start < s.Start {
			s.Start = start
		}
		if stop > s.End {
			s.End = stop
		}
	}
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if c.Type() == ast.TypeBlock {
			for i := 0; i < c.Lines().Len(); i++ {
				add(c.Lines().At(i).Start, c.Lines().At(i).Stop)
			}
		}
		switch t := c.(type) {
		case *ast.Text:
			add(t.Segment.Start, t.Segment.Stop)
		case *ast.RawHTML:
			for i := 0; i < t.Segments.Len(); i++ {
				add(t.Segments.At(i).Start, t.Segments.At(i).Stop)
			}
		}
		return ast.WalkContinue, nil
	})
	return s, s.Start >= 0
}

// sentence is a stretch of prose: one sentence, or one list item's line.
type sentence struct {
	Span analysis.Span
	Text string // the prose bytes of Span (code and the like blanked)
}

// itemMarker returns the length of the list marker (and the spaces after
// it) that starts line, or 0: "- ", "* ", "+ ", "• ", "1. ", "2) ".
func itemMarker(line []byte) int {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	j := i
	switch {
	case j < len(line) && (line[j] == '-' || line[j] == '*' || line[j] == '+'):
		j++
	case strings.HasPrefix(string(line[j:min(j+3, len(line))]), "•"):
		j += len("•")
	default:
		for j < len(line) && line[j] >= '0' && line[j] <= '9' && j-i < 9 {
			j++
		}
		if j == i || j >= len(line) || (line[j] != '.' && line[j] != ')') {
			return 0
		}
		j++
	}
	if j >= len(line) || (line[j] != ' ' && line[j] != '\t') {
		return 0
	}
	for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
		j++
	}
	return j
}

// sentences splits the prose in span into sentences: at sentence-final
// punctuation, blank lines, and the start of list items and headings.
func sentences(pt *proseText, span analysis.Span) []sentence {
	text := pt.raw
	var out []sentence
	emit := func(start, end int) {
		for start < end && isSpace(text[start]) {
			start++
		}
		for end > start && isSpace(text[end-1]) {
			end--
		}
		if end > start {
			out = append(out, sentence{Span: analysis.Span{Start: start, End: end}, Text: pt.flat[start:end]})
		}
	}
	// First cut into blocks: a blank line, or a line that starts an item or heading, starts a new one.
	start := span.Start
	lineStart := span.Start
	for i := span.Start; i <= span.End; i++ {
		if i < span.End && text[i] != '\n' {
			continue
		}
		// text[lineStart:i] is a line
		line := text[lineStart:i]
		if lineStart > start && (len(bytesTrim(line)) == 0 || itemMarker(line) > 0 || bytesTrim(line)[0] == '#') {
			splitBlock(text, start, lineStart, emit)
			start = lineStart
		}
		lineStart = i + 1
	}
	splitBlock(text, start, span.End, emit)
	return out
}

func splitBlock(text []byte, start, end int, emit func(int, int)) {
	if end <= start {
		return
	}
	block := text[start:end]
	if m := itemMarker(block); m > 0 { // a list marker is not part of the sentence
		start += m
		block = text[start:end]
	}
	prev := 0
	for i := 0; i < len(block); i++ {
		if c := block[i]; c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		for j < len(block) && strings.IndexByte(".!?\"')]", block[j]) >= 0 {
			j++
		}
		if j == len(block) || isSpace(block[j]) {
			emit(start+prev, start+j)
			prev = j
		}
		i = j - 1
	}
	emit(start+prev, end)
}

func bytesTrim(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// proseText is the prose twice: lower-cased with its line breaks (for
// splitting), and flat, line breaks made spaces (for matching phrases).
type proseText struct {
	raw  []byte
	flat string
	m    matches // every phrase of every list in flat
}

func newProseText(doc *analysis.Document) *proseText {
	raw := prose(doc)
	flatB := make([]byte, len(raw))
	for i, c := range raw {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
			raw[i] = c
		}
		if c == '\n' || c == '\r' || c == '\t' {
			c = ' '
		}
		flatB[i] = c
	}
	return &proseText{raw: raw, flat: string(flatB)}
}

// find returns the phrases of a list in span, relative to its start.
func (pt *proseText) find(list string, s analysis.Span) [][]int { return pt.m.in(list, s.Start, s.End) }

// first returns the first phrase of a list in span, or nil.
func (pt *proseText) first(list string, s analysis.Span) []int {
	if f := pt.find(list, s); len(f) > 0 {
		return f[0]
	}
	return nil
}

// at is the flat text of a span.
func (pt *proseText) at(s analysis.Span) string { return pt.flat[s.Start:s.End] }
