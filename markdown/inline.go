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
// walk was half of baton's parse. plainReader lets goldmark build the block
// structure, then, once it is complete and before the inline pass, takes the
// lines of every such paragraph out of goldmark's sight; parsePiece puts them
// back after it. Such a plain block has no inline children: its text is its
// Lines, which cover every byte the Text nodes would (a reader of the tree
// reads a block's text from its lines and its segments alike). Making those
// nodes, one a line, was a tenth of the parse and of what it allocated,
// and no rule read them. The tree is otherwise goldmark's node for node
// (TestParsePlainTextsMatchGoldmark, FuzzParseTree); paragraphs with any
// inline syntax are left to goldmark whole.
//
// The moment between the two passes is when goldmark asks for the source to
// start the inline pass: the reader is at its end and no block is open. If a
// goldmark version stopped asking then, nothing would be taken out and
// goldmark would parse every paragraph itself, as before: slower, and with
// the Text nodes.
type plainReader struct {
	gtext.Reader
	src  []byte
	pc   parser.Context
	root ast.Node // the document, seen as the parent of the first open block
	done bool
	held []heldLines
}

// heldLines is a paragraph (or a tight list's text block) whose lines are
// kept out of goldmark's inline pass.
type heldLines struct {
	node  ast.Node
	lines gtext.Segments
}

func (r *plainReader) Source() []byte {
	if r.done {
		return r.src
	}
	if r.root == nil {
		if open := r.pc.OpenedBlocks(); len(open) > 0 {
			r.root = open[0].Node.Parent()
		}
	} else if len(r.pc.OpenedBlocks()) == 0 {
		if line, _ := r.Reader.PeekLine(); line == nil {
			r.done = true
			r.hold(r.src)
		}
	}
	return r.src
}

// hold takes out the lines of every plain paragraph and text block. The
// tree holds only blocks yet: inline nodes come with the inline pass.
func (r *plainReader) hold(src []byte) {
	if r.root == nil || r.root.Kind() != ast.KindDocument {
		return
	}
	n := r.root.FirstChild()
	for n != nil {
		switch n.Kind() {
		case ast.KindParagraph, ast.KindTextBlock:
			if plainLines(n.Lines(), src) {
				r.held = append(r.held, heldLines{node: n, lines: *n.Lines()})
				*n.Lines() = gtext.Segments{}
			}
		default:
			if c := n.FirstChild(); c != nil {
				n = c
				continue
			}
		}
		for n != r.root && n.NextSibling() == nil {
			n = n.Parent()
		}
		if n == r.root {
			break
		}
		n = n.NextSibling()
	}
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

// restore puts the held lines back.
func (r *plainReader) restore() {
	for _, h := range r.held {
		*h.node.Lines() = h.lines
	}
	if cap(r.held) > 0 {
		clear(r.held) // no node outlives its document through the pool
		held := r.held[:0]
		heldPool.Put(&held)
	}
	r.held = nil
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

func newPlainReader(src []byte) *plainReader {
	return &plainReader{Reader: gtext.NewReader(src), src: src, pc: parser.NewContext(), held: *heldPool.Get().(*[]heldLines)}
}

// withContext has goldmark parse with the reader's context, whose open
// blocks the reader watches.
func withContext(r *plainReader) parser.ParseOption { return parser.WithContext(r.pc) }
