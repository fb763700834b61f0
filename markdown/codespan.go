package markdown

import (
	"bytes"
	"slices"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
)

// codeSpans is goldmark's code span parser that knows, before it looks,
// whether a run of backticks is closed. goldmark reads on from each
// opener to the end of the paragraph for a run as long, and the opener is
// text when there is none: a paragraph of unclosed runs of many lengths
// (1, 2, … 3,000 backticks, 4.5 MB) was read again from each, 4 s of a
// check and growing as its length to the power 1.5. Here the paragraph's
// runs are indexed by length once, when its first opener is met, and an
// opener with no run of its length after it is text at once; one that is
// closed is left to goldmark, which then reads only as far as the closing
// run and consumes what it read. The tree is goldmark's, node for node
// (TestCodeSpansMatchGoldmark).
type codeSpans struct{}

var (
	goldmarkCodeSpans = parser.NewCodeSpanParser()
	codeSpanRunsKey   = parser.NewContextKey()
)

func (codeSpans) Trigger() []byte { return []byte{'`'} }

func (codeSpans) Parse(parent ast.Node, block gtext.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if seg.Padding != 0 {
		return goldmarkCodeSpans.Parse(parent, block, pc)
	}
	n := 0
	for n < len(line) && line[n] == '`' {
		n++
	}
	runs, _ := pc.Get(codeSpanRunsKey).(*backtickIndex)
	if runs == nil || runs.block != parent {
		runs = indexBackticks(parent, block.Source(), runs)
		pc.Set(codeSpanRunsKey, runs)
	}
	if !runs.closed(seg.Start+n, n) {
		// As goldmark answers an opener it finds no closer for.
		block.Advance(n)
		return ast.NewTextSegment(seg.WithStop(seg.Start + n))
	}
	return goldmarkCodeSpans.Parse(parent, block, pc)
}

// backtickIndex holds the maximal runs of backticks of one block's lines,
// each as its length and its start (length<<32 | start), in increasing
// order: the runs of one length are together, by their starts.
type backtickIndex struct {
	block ast.Node
	runs  []uint64
}

// indexBackticks indexes the runs of backticks in block's lines, as
// goldmark's code span parser sees them (a run never continues across a
// line's end), reusing old's storage.
func indexBackticks(block ast.Node, src []byte, old *backtickIndex) *backtickIndex {
	x := old
	if x == nil {
		x = &backtickIndex{}
	}
	x.block, x.runs = block, x.runs[:0]
	lines := block.Lines()
	for i := range lines.Len() {
		s := lines.At(i)
		for p := s.Start; p < s.Stop; {
			j := bytes.IndexByte(src[p:s.Stop], '`')
			if j < 0 {
				break
			}
			p += j
			q := p
			for q < s.Stop && src[q] == '`' {
				q++
			}
			x.runs = append(x.runs, uint64(q-p)<<32|uint64(p))
			p = q
		}
	}
	slices.Sort(x.runs)
	return x
}

// closed reports whether a run of n backticks starts at or after from.
func (x *backtickIndex) closed(from, n int) bool {
	k, _ := slices.BinarySearch(x.runs, uint64(n)<<32|uint64(from))
	return k < len(x.runs) && x.runs[k]>>32 == uint64(n)
}
