package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// paragraphs is goldmark's paragraph parser, except that a document's
// paragraphs are made together, a slab at a time, rather than one
// allocation each: a list item holds one, and a handoff document's lists
// run to thousands of items (paragraphs were an eighth of a check run's
// allocations). Open is goldmark's otherwise; the tree is the same
// (FuzzParseTree).
type paragraphs struct{ parser.BlockParser }

// paragraphSlabKey holds a parse's *paragraphSlab in its parser.Context.
var paragraphSlabKey = parser.NewContextKey()

func (b paragraphs) Open(parent ast.Node, reader gtext.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, segment := reader.PeekLine()
	if util.IsBlank(line) {
		return nil, parser.NoChildren
	}
	s, _ := pc.Get(paragraphSlabKey).(*paragraphSlab)
	if s == nil {
		s = &paragraphSlab{}
		pc.Set(paragraphSlabKey, s)
	}
	node := s.new()
	node.Lines().Append(segment)
	reader.AdvanceToEOL()
	return node, parser.NoChildren
}

// paragraphSlab hands out zero paragraphs from chunks that double in size,
// from a few (most documents hold few paragraphs) up to maxParagraphChunk.
type paragraphSlab struct {
	free []ast.Paragraph
	made int
}

const minParagraphChunk, maxParagraphChunk = 8, 512

func (s *paragraphSlab) new() *ast.Paragraph {
	if len(s.free) == 0 {
		s.free = make([]ast.Paragraph, min(max(s.made, minParagraphChunk), maxParagraphChunk))
	}
	p := &s.free[0]
	s.free = s.free[1:]
	s.made++
	return p
}
