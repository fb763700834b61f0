package packet

import (
	"bytes"
	"encoding/binary"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/baton-md/baton/markdown"

	"github.com/yuin/goldmark/ast"
)

// proseWalk blanks, in b (the document's text folded), everything that is not the
// author's own prose (code, HTML, block quotes), byte for byte, so that
// phrase matches keep their offsets. One walk of the tree also yields every
// node's blockSpan, which the blanking and reviewItems need: calling
// blockSpan per node walked each subtree again.
type proseWalk struct {
	doc  *markdown.Document
	b    []byte // the prose of [base, base+len(b)) of the text; nil: nothing is blanked
	base int
	// html is the HTML blocks and inline HTML outside block quotes, in
	// document order, where findMarkers looks: collected here, it needs no
	// walk of the tree of its own.
	html   []ast.Node
	quotes int // the block quotes the walk is in
}

// blank makes a stretch spaces. The buffer is flat, its line breaks spaces
// already, so a blanked stretch is spaces through.
func (w *proseWalk) blank(start, end int) {
	for start, end = max(start-w.base, 0), min(end-w.base, len(w.b)); start < end; {
		start += copy(w.b[start:end], spaces[:]) // copies run as wide moves: code blocks can be long
	}
}

var spaces = [256]byte(bytes.Repeat([]byte{' '}, 256))

func (w *proseWalk) blankLines(first, last int) { // whole lines, by line number
	w.blank(w.doc.Lines.LineStart(first), w.doc.Lines.LineEnd(last))
}

// visit returns blockSpan(n) (Start -1 when it has none). live is false
// under a node whose text is blanked whole (a code block, HTML block, block
// quote or code span): nothing under it is blanked on its own. Blanking
// only ever turns bytes into spaces, so doing it after the children rather
// than before changes nothing.
func (w *proseWalk) visit(n ast.Node, live bool) markdown.Span {
	s := markdown.Span{Start: -1}
	add := func(start, stop int) {
		if s.Start < 0 || start < s.Start {
			s.Start = start
		}
		if stop > s.End {
			s.End = stop
		}
	}
	if n.Type() == ast.TypeBlock {
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			add(seg.Start, seg.Stop)
		}
	}
	switch t := n.(type) {
	case *ast.Text:
		add(t.Segment.Start, t.Segment.Stop)
	case *ast.RawHTML:
		for i := 0; i < t.Segments.Len(); i++ {
			add(t.Segments.At(i).Start, t.Segments.At(i).Stop)
		}
	}
	switch n.(type) {
	case *ast.HTMLBlock, *ast.RawHTML:
		if w.quotes == 0 {
			w.html = append(w.html, n)
		}
	case *ast.Blockquote:
		w.quotes++
	}
	whole := false
	if live {
		switch n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock, *ast.Blockquote, *ast.CodeSpan:
			whole = true
		}
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if cs := w.visit(c, live && !whole); cs.Start >= 0 {
			add(cs.Start, cs.End)
		}
	}
	if _, ok := n.(*ast.Blockquote); ok {
		w.quotes--
	}
	if live {
		w.blankNode(n, s)
	}
	return s
}

// blankNode blanks what of a node is not prose, given its blockSpan.
func (w *proseWalk) blankNode(n ast.Node, s markdown.Span) {
	doc := w.doc
	ok := s.Start >= 0
	switch n := n.(type) {
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock, *ast.Blockquote:
		if ok {
			first, last := doc.Lines.LineOf(s.Start), doc.Lines.LineOf(max(s.End-1, s.Start))
			if fc, ok := n.(*ast.FencedCodeBlock); ok {
				first, last = fenceLines(doc, fc, first, last)
			}
			if hb, ok := n.(*ast.HTMLBlock); ok && hb.HasClosure() {
				last = max(last, doc.Lines.LineOf(hb.ClosureLine.Start))
			}
			w.blankLines(first, last)
		} else if fc, ok := n.(*ast.FencedCodeBlock); ok && fc.Info != nil {
			l := doc.Lines.LineOf(fc.Info.Segment.Start)
			w.blankLines(l, min(l+1, doc.Lines.LineCount()-1))
		}
	case *ast.CodeSpan:
		if ok {
			w.blank(s.Start-1, s.End+1) // and the backticks next to it
		}
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			w.blank(n.Segments.At(i).Start, n.Segments.At(i).Stop)
		}
	}
}

// topBlock is a top-level block of the document with its blockSpan.
type topBlock struct {
	n    ast.Node
	span markdown.Span
}

// windowBytes is the most text whose prose is held at once: a document of
// many packets is read in windows of whole packets about this long, so
// that its prose (a copy of the text as long as it) costs a window, not
// the document (a 16 MB document of packets held 20 MB of prose and its
// matches at the peak of its analysis). A variable for the tests.
var windowBytes = 1 << 20

// fill makes the prose of the text's [start, end): lower-cased and flat
// (line breaks and tabs made spaces), with everything that is not the
// author's own prose blanked out (code, HTML, block quotes, link
// destinations), byte for byte, so that phrase matches keep their
// offsets. all says the window is the whole document and the walk also
// finds its top-level blocks and HTML (outline does that for a document of
// several windows).
func (pt *proseText) fill(doc *markdown.Document, start, end int, all bool) {
	src := doc.Text
	if pt.buf == nil {
		pt.buf = proseBuf.Get().(*[]byte)
	}
	b := *pt.buf
	if cap(b) < end-start {
		b = make([]byte, end-start)
	}
	b = b[:end-start]
	*pt.buf = b
	foldProseInto(b, unsafe.Slice(unsafe.StringData(src[start:end]), end-start))
	w := &proseWalk{doc: doc, b: b, base: start}
	if fm := doc.FrontMatter; fm != nil {
		w.blank(fm.Span.Start, fm.Span.End)
	}
	// The root (a document node) has no lines or text of its own and is
	// never blanked: its children are walked directly to keep their spans.
	if all {
		pt.top = make([]topBlock, 0, doc.Root.ChildCount())
		for c := doc.Root.FirstChild(); c != nil; c = c.NextSibling() {
			if s := w.visit(c, true); s.Start >= 0 {
				pt.top = append(pt.top, topBlock{c, s})
			}
		}
		pt.html = w.html
	} else {
		// The top-level blocks starting in the window, and one on either
		// side: what a block blanks beyond its text (its fences, the
		// backticks of a code span) is clipped to the window.
		i := max(sort.Search(len(pt.nodes), func(i int) bool { return pt.nodes[i].at >= start })-1, 0)
		for ; i < len(pt.nodes) && (i == 0 || pt.nodes[i-1].at < end); i++ {
			w.visit(pt.nodes[i].n, true)
		}
	}
	// Link destinations: "](…)" up to the closing parenthesis on that line
	// (the text says where lines break: the prose has spaces there). With
	// none, no "](" before the line's end has one either: the search goes
	// on after it, or a line of 25,000 "[x](" was read again from each
	// (23 s). A window starts and ends at a line's start: no destination
	// crosses it.
	for i := 0; i+1 < len(b); i++ {
		k := bytes.IndexByte(b[i:len(b)-1], ']')
		if k < 0 {
			break
		}
		if i += k; b[i+1] != '(' {
			continue
		}
		j := i + 2
		for j < len(b) && b[j] != ')' && src[start+j] != '\n' {
			j++
		}
		if j < len(b) && b[j] == ')' {
			w.blank(start+i+1, start+j+1)
		}
		i = j
	}
	pt.b, pt.base = b, start
	// b is written once, above, and never modified until the next window:
	// it is made a string without copying it again.
	pt.flat = unsafe.String(unsafe.SliceData(b), len(b))
}

// outline finds, for a document read in several windows, its top-level
// blocks (with text, for reviewItems; every one, with where it starts,
// for the windows' walks) and its HTML (for findMarkers), in one walk that
// blanks nothing.
func (pt *proseText) outline(doc *markdown.Document) {
	w := &proseWalk{doc: doc}
	pt.top = make([]topBlock, 0, doc.Root.ChildCount())
	pt.nodes = make([]nodeAt, 0, doc.Root.ChildCount())
	at := 0
	for c := doc.Root.FirstChild(); c != nil; c = c.NextSibling() {
		if s := w.visit(c, true); s.Start >= 0 {
			pt.top = append(pt.top, topBlock{c, s})
			at = max(at, s.Start)
		}
		pt.nodes = append(pt.nodes, nodeAt{c, at})
	}
	pt.html = w.html
}

// nodeAt is a top-level block and where its text starts (a block without
// text: where the one before it starts).
type nodeAt struct {
	n  ast.Node
	at int
}

// The prose passes run over whole documents, so they work eight bytes at a
// time where they can.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// foldProseInto writes src to b (as long, or src itself) with its ASCII
// letters lower-cased and its line breaks and tabs spaces: folding while
// copying reads the text once.
func foldProseInto(b, src []byte) {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(src[i:])
		low := x &^ highs                                                          // each byte's low seven bits: no carry between bytes below
		upper := (low + (0x80-'A')*ones) &^ (low + (0x80-'Z'-1)*ones) &^ x & highs // ASCII, >= 'A' and not > 'Z'
		// Only bytes below 0x0e can be '\t', '\n' or '\r'; this test finds
		// whether there is one exactly.
		if (x-0x0e*ones)&^x&highs != 0 {
			binary.LittleEndian.PutUint64(b[i:], x)
			for k := i; k < i+8; k++ {
				if c := b[k]; c == '\n' || c == '\r' || c == '\t' {
					b[k] = ' '
				}
			}
			x = binary.LittleEndian.Uint64(b[i:])
		}
		binary.LittleEndian.PutUint64(b[i:], x|upper>>2) // 0x80>>2 is the case bit, 0x20
	}
	for ; i < len(b); i++ {
		switch c := src[i]; {
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		case c == '\n' || c == '\r' || c == '\t':
			b[i] = ' '
		default:
			b[i] = c
		}
	}
}

// proseBuf holds prose buffers for reuse: the prose is a copy of the whole
// document, and nothing of it outlives BuildWith (the model keeps spans and
// strings of its own), which gives it back (release).
var proseBuf = sync.Pool{New: func() any { return new([]byte) }}

// release gives the prose's buffer back for the next document; pt is not
// to be used after.
func (pt *proseText) release() {
	buf := pt.buf
	pt.b, pt.flat, pt.buf = nil, "", nil
	if buf == nil || cap(*buf) > 4<<20 {
		return // a rare huge window: not worth holding on to
	}
	*buf = (*buf)[:0]
	proseBuf.Put(buf)
}

// fenceLines widens a fenced block's content lines to its fences.
func fenceLines(doc *markdown.Document, fc *ast.FencedCodeBlock, first, last int) (int, int) {
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
func blockSpan(n ast.Node) (markdown.Span, bool) {
	s := markdown.Span{Start: -1}
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
	Span markdown.Span
	Text string // the prose bytes of Span (code and the like blanked)
}

// itemMarker returns the length of the list marker (and the spaces after
// it) that starts line, or 0: "- ", "* ", "+ ", "• ", "1. ", "2) ". src is
// the line as the document's text has it: the prose makes a line break a
// space, and a line break is not one here.
func itemMarker(line []byte, src string) int {
	space := func(k int) bool { return line[k] == '\t' || line[k] == ' ' && src[k] != '\r' && src[k] != '\n' }
	i := 0
	for i < len(line) && space(i) {
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
	if j >= len(line) || !space(j) {
		return 0
	}
	for j < len(line) && space(j) {
		j++
	}
	return j
}

// sentences splits the prose in span into sentences: at sentence-final
// punctuation, blank lines, and the start of list items and headings.
func sentences(pt *proseText, span markdown.Span) []sentence {
	// In the window's offsets: text and src (the window's text) line up.
	base := pt.base
	text, src := pt.b, pt.text[base:base+len(pt.b)]
	span = markdown.Span{Start: span.Start - base, End: span.End - base}
	// Sized for a sentence in about fifty bytes of prose: growing it from
	// nothing cost more than splitting.
	out := make([]sentence, 0, (span.End-span.Start)/48+2)
	emit := func(start, end int) {
		for start < end && isSpace(text[start]) {
			start++
		}
		for end > start && isSpace(text[end-1]) {
			end--
		}
		if end > start {
			out = append(out, sentence{Span: markdown.Span{Start: base + start, End: base + end}, Text: pt.flat[start:end]})
		}
	}
	// First cut into blocks: a blank line, or a line that starts an item or heading, starts a new one.
	start := span.Start
	for lineStart := span.Start; lineStart <= span.End; {
		i := span.End
		if k := nextBreak(src[lineStart:span.End]); k >= 0 {
			i = lineStart + k
		}
		// text[lineStart:i] is a line
		line := text[lineStart:i]
		if lineStart > start && (len(bytesTrim(line)) == 0 || itemMarker(line, src[lineStart:i]) > 0 || bytesTrim(line)[0] == '#') {
			splitBlock(text, src, start, lineStart, emit)
			start = lineStart
		}
		lineStart = i + 1
	}
	splitBlock(text, src, start, span.End, emit)
	return out
}

func splitBlock(text []byte, src string, start, end int, emit func(int, int)) {
	if end <= start {
		return
	}
	block := text[start:end]
	if m := itemMarker(block, src[start:end]); m > 0 { // a list marker is not part of the sentence
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

// nextBreak is the index of the first line break in s: a '\n' (a CRLF's
// '\n'), or a CR on its own, which ends a line in CommonMark too; -1 when
// there is none.
func nextBreak(s string) int {
	k := strings.IndexByte(s, '\n')
	lim := k
	if lim < 0 {
		lim = len(s)
	}
	if r := strings.IndexByte(s[:lim], '\r'); r >= 0 && r != k-1 {
		return r
	}
	return k
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// proseText is the document's prose, lower-cased and flat (for splitting
// into sentences and matching phrases), and where its lines break.
type proseText struct {
	// b is the prose of the text's [base, base+len(b)) (a window of whole
	// packets, or the whole document): never written once built (flat is
	// the same bytes). Offsets everywhere else are the text's.
	b    []byte
	flat string
	base int
	buf  *[]byte // b's pooled buffer
	// text is the document's text: the prose has a space where the text
	// breaks a line, and the text says which spaces those are.
	text string
	// m holds the phrases of each list (by index in ph.names) found in
	// flat, start and end in turn: those lying in exact[list] are all the
	// list's phrases there (see phrases.scan).
	m     [][]int
	exact [][]markdown.Span
	ph    *phrases
	// top is the document's top-level blocks with text, in order; sorted
	// when their spans' starts never decrease (then reviewItems looks a
	// section's blocks up by binary search, not by a scan of the document
	// per packet).
	top    []topBlock
	sorted bool
	html   []ast.Node // the HTML outside block quotes, in order (see proseWalk)
	nodes  []nodeAt   // every top-level block, for the windows (outline)
}

// newProseText reads doc's outline, and its prose whole when it is one
// window long (window makes the prose of the others).
func newProseText(doc *markdown.Document) *proseText {
	pt := &proseText{text: doc.Text, sorted: true}
	if len(doc.Text) <= windowBytes {
		pt.fill(doc, 0, len(doc.Text), true)
	} else {
		pt.outline(doc)
	}
	for i := 1; i < len(pt.top); i++ {
		if pt.top[i].span.Start < pt.top[i-1].span.Start {
			pt.sorted = false
			break
		}
	}
	return pt
}

// blocksIn returns the top-level blocks whose text starts in span, in order.
func (pt *proseText) blocksIn(span markdown.Span) []topBlock {
	if !pt.sorted {
		var out []topBlock
		for _, b := range pt.top {
			if b.span.Start >= span.Start && b.span.Start < span.End {
				out = append(out, b)
			}
		}
		return out
	}
	i := sort.Search(len(pt.top), func(i int) bool { return pt.top[i].span.Start >= span.Start })
	j := i
	for j < len(pt.top) && pt.top[j].span.Start < span.End {
		j++
	}
	return pt.top[i:j]
}

// window makes the prose of the text's [start, end) (see fill), unless it
// holds it already.
func (pt *proseText) window(doc *markdown.Document, start, end int) {
	if pt.b != nil && pt.base == start && pt.base+len(pt.b) == end {
		return
	}
	pt.fill(doc, start, end, false)
}

// scan finds the phrases of each list around the spans where it will be
// asked about (asked, by list index), all in the window.
func (pt *proseText) scan(ph *phrases, asked [][]markdown.Span) {
	pt.ph = ph
	pt.m, pt.exact = pt.scanWindow(asked)
}

// scanWindow is ph.scan on the window, in the text's offsets.
func (pt *proseText) scanWindow(asked [][]markdown.Span) ([][]int, [][]markdown.Span) {
	if pt.base == 0 {
		return pt.ph.scan(pt.flat, asked)
	}
	local := make([][]markdown.Span, len(asked))
	for li, spans := range asked {
		for _, s := range spans {
			local[li] = append(local[li], markdown.Span{Start: s.Start - pt.base, End: s.End - pt.base})
		}
	}
	m, exact := pt.ph.scan(pt.flat, local)
	for _, l := range m {
		for i := range l {
			l[i] += pt.base
		}
	}
	for _, l := range exact {
		for i := range l {
			l[i].Start += pt.base
			l[i].End += pt.base
		}
	}
	return m, exact
}

// matches returns a list's matches, which hold all of those in s.
func (pt *proseText) matches(list string, s markdown.Span) []int {
	if !scanned(list) {
		panic("packet: the phrases of list " + list + " are not scanned for")
	}
	li := pt.ph.index[list]
	exact := pt.exact[li]
	// The last stretch starting at or before s.
	if k := sort.Search(len(exact), func(k int) bool { return exact[k].Start > s.Start }); s.Start >= s.End || k > 0 && s.End <= exact[k-1].End {
		return pt.m[li]
	}
	// A span the scan was not told of: the list over the whole text. (Not
	// kept: packets are read in parallel, and finish tells the scan of every
	// span it asks about, so this is never the case there.)
	asked := make([][]markdown.Span, len(pt.ph.names))
	asked[li] = []markdown.Span{{Start: pt.base, End: pt.base + len(pt.flat)}}
	m, _ := pt.scanWindow(asked)
	return m[li]
}

// find returns the phrases of a list in span, relative to its start.
func (pt *proseText) find(list string, s markdown.Span) [][]int {
	return matchesIn(pt.matches(list, s), s.Start, s.End)
}

// first returns the first phrase of a list in span, or nil.
func (pt *proseText) first(list string, s markdown.Span) []int {
	return firstMatchIn(pt.matches(list, s), s.Start, s.End)
}

// at is the flat text of a span.
func (pt *proseText) at(s markdown.Span) string { return pt.flat[s.Start-pt.base : s.End-pt.base] }

// trim narrows a span to its prose without surrounding space.
func (pt *proseText) trim(s markdown.Span) markdown.Span {
	for s.Start < s.End && isSpace(pt.b[s.Start-pt.base]) {
		s.Start++
	}
	for s.End > s.Start && isSpace(pt.b[s.End-1-pt.base]) {
		s.End--
	}
	return s
}
