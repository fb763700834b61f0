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
// lines of every such paragraph out of goldmark's sight; parsePiece puts them back
// and makes the Text nodes goldmark would have made (plainTexts). The tree is
// the same node for node (TestParsePlainTextsMatchGoldmark, FuzzParseTree);
// paragraphs with any inline syntax are left to goldmark whole.
//
// The moment between the two passes is when goldmark asks for the source to
// start the inline pass: the reader is at its end and no block is open. If a
// goldmark version stopped asking then, nothing would be taken out and
// goldmark would parse every paragraph itself, as before: slower, never
// different.
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
// one Text node per line and nothing else, as plainTexts does: no trigger
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

// restore puts the held lines back and gives each block its Text nodes,
// allocated together.
func (r *plainReader) restore(src []byte) {
	if len(r.held) > 0 {
		n := 0
		for _, h := range r.held {
			n += h.lines.Len()
		}
		texts := make([]ast.Text, n)
		for _, h := range r.held {
			*h.node.Lines() = h.lines
			texts = plainTexts(h.node, &h.lines, src, texts)
		}
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

// plainTexts appends to block the Text node of each of its lines, as
// goldmark's inline pass makes them for a line with no inline syntax: the
// line up to its break, trailing spaces trimmed unless the break is a
// backslash; a hard break for a backslash or two spaces before the line
// break, else a soft one where the line has a break. It takes the nodes
// from texts and returns what is left.
func plainTexts(block ast.Node, lines *gtext.Segments, src []byte, texts []ast.Text) []ast.Text {
	for i := range lines.Len() {
		seg := lines.At(i)
		line := src[seg.Start:seg.Stop]
		length := len(line)
		var hard, visible, soft bool
		newline := line[length-1] == '\n'
		switch {
		case newline && (length >= 3 && line[length-2] == '\\' && line[length-3] != '\\' || length == 2 && line[0] == '\\'):
			length -= 2 // "\\\n"
			hard, visible = true, true
		case newline && (length >= 4 && line[length-3] == '\\' && line[length-2] == '\r' && line[length-4] != '\\' || length == 3 && line[0] == '\\' && line[1] == '\r'):
			length -= 3 // "\\\r\n"
			hard, visible = true, true
		case newline && length >= 3 && line[length-3] == ' ' && line[length-2] == ' ':
			length -= 3 // "  \n"
			hard = true
		case newline && length >= 4 && line[length-4] == ' ' && line[length-3] == ' ' && line[length-2] == '\r':
			length -= 4 // "  \r\n"
			hard = true
		case newline:
			soft = true
		}
		if k := bytes.IndexByte(line[:length], '\n'); k >= 0 {
			length = k
		}
		t := &texts[0]
		texts = texts[1:]
		t.Segment = gtext.NewSegment(seg.Start, seg.Start+length)
		if !(hard && visible) {
			t.Segment = t.Segment.TrimRightSpace(src)
		}
		t.SetSoftLineBreak(soft)
		t.SetHardLineBreak(hard)
		block.AppendChild(block, t)
	}
	return texts
}

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
