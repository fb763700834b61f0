package markdown

import (
	"bytes"
	"runtime"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// A large document is parsed in pieces at once, one a CPU: an editor waits
// on the parse of the very document being typed in, and a megabyte takes
// goldmark over ten milliseconds.
//
// A piece starts at an ATX heading in the first column after a blank line.
// Nothing of CommonMark's block structure runs on through such a line except
// a fenced code block or a raw HTML block (script, comment, …) left open at
// the top level: the blank line closes paragraphs and HTML blocks of the
// last two kinds, the heading closes lists, quotes and everything in them.
// So each piece is parsed up to and including the next piece's heading, and
// kept only when that heading comes out as its last top-level block:
// whatever came before it was then closed, in the whole document's parse
// too. Otherwise the document is parsed whole. The tree is the same either
// way (TestParsePiecesMatchGoldmark, FuzzParseTree).
const piecesMin = 256 << 10 // below this, one parse

// parsePieces parses src in up to n pieces at once, or returns nil when it
// finds no place to cut or a cut turns out not to close everything.
func parsePieces(src []byte, n int) ast.Node {
	cuts := pieceCuts(src, n)
	if len(cuts) == 0 {
		return nil
	}
	starts := append([]int{0}, cuts...)
	roots := make([]ast.Node, len(starts))
	var wg sync.WaitGroup
	for i, start := range starts {
		end := len(src)
		if i+1 < len(starts) {
			end = lineEnd(src, starts[i+1]) // the next piece's heading, to see it close this one
		}
		wg.Go(func() { roots[i] = parsePiece(src[:end], start) })
	}
	wg.Wait()
	for i, root := range roots[:len(roots)-1] {
		h, ok := root.LastChild().(*ast.Heading)
		if !ok || h.Lines().Len() == 0 || h.Lines().At(0).Start < starts[i+1] {
			return nil
		}
		root.RemoveChild(root, h)
	}
	root := roots[0]
	for _, r := range roots[1:] {
		for c := r.FirstChild(); c != nil; {
			next := c.NextSibling()
			r.RemoveChild(r, c)
			root.AppendChild(root, c)
			c = next
		}
	}
	return root
}

// parsePiece parses src from start (a line's start after a blank line, or
// 0) to its end, offsets in src.
func parsePiece(src []byte, start int) ast.Node {
	r, pc := newParse(src)
	if start > 0 {
		// Stand on the blank line before start, then step onto start: the
		// reader then measures columns from start's line.
		prev := lineStart(src, start-1)
		r.SetPosition(0, gtext.NewSegment(prev, start))
		r.AdvanceLine()
	}
	root := mdParser.Parse(r, parser.WithContext(pc))
	restoreHeld(pc)
	return root
}

// pieceCuts returns up to n-1 places to cut src, increasing: each the first
// ATX heading line with text, in the first column and after a blank line,
// at or after an n-th of the text.
func pieceCuts(src []byte, n int) []int {
	var cuts []int
	at := 0
	for i := 1; i < n; i++ {
		c := headingAfterBlank(src, max(at+1, i*len(src)/n))
		if c < 0 {
			break
		}
		cuts = append(cuts, c)
		at = c
	}
	return cuts
}

// headingAfterBlank returns the start of the first line at or after from
// that is an ATX heading with text in the first column ("#"s, a space or
// tab, then something) after a blank line, or -1.
func headingAfterBlank(src []byte, from int) int {
	i := from
	if i >= len(src) {
		return -1
	}
	if i > 0 && src[i-1] != '\n' {
		i = lineEnd(src, i)
	}
	for i < len(src) {
		if src[i] == '#' && i > 0 && atxWithText(src[i:lineEnd(src, i)]) && util.IsBlank(src[lineStart(src, i-1):i]) {
			return i
		}
		i = lineEnd(src, i)
	}
	return -1
}

func atxWithText(line []byte) bool {
	k := 0
	for k < len(line) && line[k] == '#' {
		k++
	}
	if k == 0 || k > 6 || k >= len(line) || line[k] != ' ' && line[k] != '\t' {
		return false
	}
	return !util.IsBlank(line[k:])
}

// lineEnd returns the start of the line after the one holding i.
func lineEnd(src []byte, i int) int {
	if k := bytes.IndexByte(src[i:], '\n'); k >= 0 {
		return i + k + 1
	}
	return len(src)
}

// lineStart returns the start of the line holding i.
func lineStart(src []byte, i int) int {
	for i > 0 && src[i-1] != '\n' {
		i--
	}
	return i
}

// parseMarkdown parses src with mdParser, making plain paragraphs' Text
// nodes itself, in pieces at once when it is large.
func parseMarkdown(src []byte) ast.Node {
	if n := min(runtime.GOMAXPROCS(0), len(src)/(piecesMin/2)); len(src) >= piecesMin && n > 1 {
		if root := parsePieces(src, n); root != nil {
			return root
		}
	}
	return parsePiece(src, 0)
}
