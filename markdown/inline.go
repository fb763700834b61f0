package markdown

import (
	"bytes"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Most paragraphs hold no inline syntax baton's parser reads: no backtick
// (code spans) and no "<" (autolinks, raw HTML). For those, goldmark's inline
// pass only walks every byte to cut each line into one Text node, and that
// walk was half of baton's parse. So when such a paragraph closes
// (paragraphs.Close), its lines are taken out of goldmark's sight, and the
// parse puts them back after goldmark's inline pass (restoreHeld). Such a
// plain block has no inline children: its text is its Lines, which cover
// every byte the Text nodes would (a reader of the tree reads a block's
// text from its lines and its segments alike). Making those nodes, one a
// line, was a tenth of the parse and of what it allocated, and no rule
// read them. The tree is otherwise goldmark's node for node
// (TestParsePlainTextsMatchGoldmark, FuzzParseTree); paragraphs with any
// inline syntax are left to goldmark whole.
//
// A closed paragraph's lines are final, the link reference definitions
// taken out before it closes, but in one case: a setext heading's
// underline closes the paragraph first, then goldmark gives its lines to
// the link reference definitions and the heading. A paragraph closed by a
// line that may be an underline is not held (mayUnderline). (The lines
// were taken out at the start of the inline pass before, by a reader that
// watched for it: every read of the source went through it, and the tree
// was walked once more to find them.)

// heldLines is a paragraph whose lines are kept out of goldmark's inline
// pass.
type heldLines struct {
	node  ast.Node
	lines gtext.Segments
}

// parse is what one parse keeps beside goldmark's context: the paragraphs
// held out of the inline pass, and the slab its paragraphs are made from.
type parse struct {
	held *[]heldLines // from heldPool
	slab paragraphSlab
}

// parseKey holds a parse's *parse in its parser.Context.
var parseKey = parser.NewContextKey()

// newParse is a reader of src and a context for goldmark to parse it with.
func newParse(src []byte) (gtext.Reader, parser.Context) {
	pc := parser.NewContext()
	pc.Set(parseKey, &parse{held: heldPool.Get().(*[]heldLines)})
	return gtext.NewReader(src), pc
}

// parseOf is the parse that pc is the context of; nil for a context
// newParse did not make.
func parseOf(pc parser.Context) *parse {
	p, _ := pc.Get(parseKey).(*parse)
	return p
}

// hold takes the lines of the closed paragraph node out of the inline
// pass when they are plain.
func (p *parse) hold(node ast.Node, src []byte) {
	if !plainLines(node.Lines(), src) {
		return
	}
	*p.held = append(*p.held, heldLines{node: node, lines: *node.Lines()})
	*node.Lines() = gtext.Segments{}
}

// plainLines reports whether goldmark's inline pass over lines would make
// one Text node per line and nothing else, nodes the lines stand for: no trigger
// byte of an inline parser baton uses, no tab padding, no empty line, and
// every line but the last ending in its line break.
func plainLines(lines *gtext.Segments, src []byte) bool {
	k := lines.Len()
	if k == 0 {
		return false
	}
	first, last := lines.At(0), lines.At(k-1)
	if first.Start < 0 || last.Stop > len(src) || first.Start >= last.Stop {
		return false
	}
	for i := range k {
		s := lines.At(i)
		if s.Padding != 0 || s.Start >= s.Stop || i+1 < k && src[s.Stop-1] != '\n' {
			return false
		}
	}
	span := src[first.Start:last.Stop] // the lines and whatever lies between them
	return bytes.IndexByte(span, '`') < 0 && bytes.IndexByte(span, '<') < 0
}

// restoreHeld puts the held lines of the parse with context pc back.
func restoreHeld(pc parser.Context) {
	p := parseOf(pc)
	if p == nil || p.held == nil {
		return
	}
	for _, h := range *p.held {
		*h.node.Lines() = h.lines
	}
	clear(*p.held) // no node outlives its document through the pool
	*p.held = (*p.held)[:0]
	heldPool.Put(p.held)
	p.held = nil
}

// heldPool keeps the held lists between parses: a large document holds
// thousands of paragraphs, and growing the list was a third of holding them.
var heldPool = sync.Pool{New: func() any { return new([]heldLines) }}

// linkRefs is goldmark's link reference definition transformer, asked only
// about paragraphs whose first byte other than a space is "[": it skips the
// spaces, line breaks included, then gives up on anything else, and setting
// up to look cost a twentieth of the parse.
type linkRefs struct{ parser.ParagraphTransformer }

func (t linkRefs) Transform(node *ast.Paragraph, reader gtext.Reader, pc parser.Context) {
	src := reader.Source()
	lines := node.Lines()
	for i := range lines.Len() {
		s := lines.At(i)
		for _, c := range src[s.Start:s.Stop] {
			if !util.IsSpace(c) {
				if c == '[' {
					t.ParagraphTransformer.Transform(node, reader, pc)
				}
				return
			}
		}
	}
	t.ParagraphTransformer.Transform(node, reader, pc)
}
