package markdown

import (
	"github.com/baton-md/baton/internal/pages"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// paragraphs is goldmark's paragraph parser, except that a document's
// paragraphs are made together, a slab at a time, rather than one
// allocation each: a list item holds one, and a handoff document's lists
// run to thousands of items (paragraphs were an eighth of a check run's
// allocations); and that a plain paragraph is held out of the inline pass
// when it closes (parse.hold). Open is goldmark's otherwise; the tree is the
// same (FuzzParseTree).
type paragraphs struct{ parser.BlockParser }

func (b paragraphs) Open(parent ast.Node, reader gtext.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, segment := reader.PeekLine()
	if util.IsBlank(line) {
		return nil, parser.NoChildren
	}
	var node *ast.Paragraph
	if p := parseOf(pc); p != nil {
		node = p.slab.new()
	} else {
		node = ast.NewParagraph()
	}
	node.Lines().Append(segment)
	reader.AdvanceToEOL()
	return node, parser.NoChildren
}

// Close is goldmark's, then holds the paragraph's lines out of the inline
// pass when they are plain (parse.hold), unless the line that closes it
// may be a setext heading's underline: goldmark closes the paragraph, then
// gives its lines to the link reference definitions and to the heading.
func (b paragraphs) Close(node ast.Node, reader gtext.Reader, pc parser.Context) {
	b.BlockParser.Close(node, reader, pc)
	p := parseOf(pc)
	if p == nil || p.held == nil || node.Parent() == nil { // goldmark removes a paragraph left with no line
		return
	}
	if line, _ := reader.PeekLine(); !mayUnderline(line) {
		p.hold(node, reader.Source())
	}
}

// mayUnderline reports whether line may be a setext heading's underline:
// up to three spaces, then "=" or "-".
func mayUnderline(line []byte) bool {
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	return i < len(line) && (line[i] == '=' || line[i] == '-')
}

// paragraphSlab hands out zero paragraphs from chunks that double in size,
// from a few (most documents hold few paragraphs) up to maxParagraphChunk.
type paragraphSlab struct {
	free []ast.Paragraph
	made int
}

// A chunk stays one of the allocator's small objects (32 KB at most, here
// 128 paragraphs of 160 bytes), whose memory the runtime hands out again:
// a larger one is a run of pages of its own, given back to the system
// between collections and faulted in anew for the next (512 a chunk made
// the generated corpus's check spend 3% of its time in page faults).
const minParagraphChunk, maxParagraphChunk = 8, 128

func (s *paragraphSlab) new() *ast.Paragraph {
	if len(s.free) == 0 {
		s.free = make([]ast.Paragraph, min(max(s.made, minParagraphChunk), maxParagraphChunk))
		// A paragraph's first use reads it (goldmark appends to its
		// lines): see package pages (3% of check's time on the generated
		// corpus went to the second fault of its pages).
		pages.Touch(s.free)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	s.made++
	return p
}
