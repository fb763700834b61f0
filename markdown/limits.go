package markdown

import (
	"github.com/yuin/goldmark/ast"
)

// The limits of a parse: past them a document is cut or not parsed at all,
// and the analysis says so in one finding (docs/reliability.md).

// MaxDocumentBytes is the largest document analysed: its parse and
// findings hold about 7 bytes of memory per byte at their peak (the
// process peaks at about 11, bench/cmd/peak), and real stop packets,
// handoffs and workflows are kilobytes (executable.md's whole language
// specification is 0.6 MB). A larger one gets baton/document-too-large
// and nothing else.
const MaxDocumentBytes = 16 << 20

// tooLargeDocument is the document of a text over MaxDocumentBytes: its
// text and lines, no syntax tree, kind other.
func tooLargeDocument(uri, text string, lines *LineIndex) *Document {
	if lines == nil || !lines.indexes(text) {
		lines = NewLineIndex(text)
	}
	return &Document{URI: uri, Text: text, Lines: lines, Root: ast.NewDocument(), TooLarge: len(text)}
}

// MaxLineNesting is the most containers (list items, block quotes) one
// line opens that goldmark sees: "- - - … x" makes it re-scan the rest of
// the line at every level (100 KB took 8.7 s). Past it, the next marker is
// read as text.
const MaxLineNesting = 32

// MaxNestingIndent bounds nesting across lines: a container marker (a list
// item's, a block quote's) that starts a line past this column is read as
// text. A list item nested in n others starts at column 2n or more, so
// lists nest at most 32 deep this way (with MaxLineNesting more on one
// line). goldmark checks every open container on every line, each
// measuring the line's indentation: 3,000 items each indented two more
// spaces than the one before (9 MB) took 44.7 s, cubic in the depth.
const MaxNestingIndent = 64

// capNesting makes the marker that would open a container past the caps
// (MaxLineNesting on one line, MaxNestingIndent across lines) a letter, in
// the parser's copy of the text: the rest of the line is then a
// paragraph's text. Offsets do not change. src is read only: before its
// first change it is replaced by own(), a copy it may write. It returns
// the offset of the first marker so cut, or -1. starts are where src's
// lines start (a LineIndex's: its breaks are src's LFs, the lone CRs the
// parser's copy has made LFs included).
func capNesting(src []byte, starts []int32, own func() []byte) (cut int) {
	cut = -1
	mark := func(j int) {
		src = own()
		src[j] = 'x'
		if cut < 0 {
			cut = j
		}
	}
	for li, s32 := range starts {
		start, end := int(s32), len(src)
		if li+1 < len(starts) {
			end = int(starts[li+1]) - 1 // its LF
		}
		if j, col := indentEnd(src, start, end); col > MaxNestingIndent {
			if markerEnd(src, j, end) >= 0 {
				mark(j)
			}
			continue
		}
		i, depth := start, 0
		for i < end {
			j := i
			for k := 0; k < 3 && j < end && src[j] == ' '; k++ {
				j++
			}
			m := markerEnd(src, j, end)
			if m < 0 {
				break
			}
			if depth++; depth > MaxLineNesting {
				mark(j)
				break
			}
			i = m
			for i < end && (src[i] == ' ' || src[i] == '\t') {
				i++
			}
		}
	}
	return cut
}

// indentEnd returns where the line from start to end stops being spaces
// and tabs, and the column it reaches there (a tab to the next multiple
// of 4, as CommonMark counts).
func indentEnd(src []byte, start, end int) (int, int) {
	col := 0
	for i := start; i < end; i++ {
		switch src[i] {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return i, col
		}
	}
	return end, col
}

// markerEnd returns where a container marker at i ends (just past it), or
// -1: "-", "*", "+" or "1." / "1)" followed by a space, a tab or the end of
// the line, or ">".
func markerEnd(src []byte, i, end int) int {
	if i >= end {
		return -1
	}
	spaced := func(k int) int {
		if k == end || src[k] == ' ' || src[k] == '\t' {
			return k
		}
		return -1
	}
	switch c := src[i]; {
	case c == '>':
		return i + 1
	case c == '-' || c == '*' || c == '+':
		return spaced(i + 1)
	case c >= '0' && c <= '9':
		k := i
		for k < end && k-i < 9 && src[k] >= '0' && src[k] <= '9' {
			k++
		}
		if k < end && (src[k] == '.' || src[k] == ')') {
			return spaced(k + 1)
		}
	}
	return -1
}
