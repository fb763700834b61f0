package workflow

import (
	"sort"
	"strings"
	"sync"

	"github.com/baton-md/baton/markdown"
)

// Node is one thing in a body that the rules read: a *Tag, a *Placeholder
// or a *CodeBlock. Prose between them is not kept.
type Node interface {
	NodeSpan() markdown.Span
}

// Tag is one component element, <Name …>children</Name> or <Name … />.
type Tag struct {
	Name     string
	NameSpan markdown.Span // the name in the opening tag
	// Span is the whole element: from "<" to the end of its closing tag,
	// of the opening tag when self-closing, or of the text when never closed.
	Span  markdown.Span
	Open  markdown.Span // the opening tag, "<" to ">"
	Close markdown.Span // the closing tag; empty (at Span.End) when self-closing or never closed
	// CloseName is the name in the closing tag; empty when there is none.
	CloseName   markdown.Span
	Inner       markdown.Span // between the opening and the closing tag
	SelfClosing bool
	Closed      bool // false for an element never closed (a syntax error)
	// Literal is true for a tag Markdown reads as no tag: opened inside an
	// HTML comment, right after a backslash or in an indented code block. The engine's scanner reads
	// it as it reads any other (packages/core/src/scanner.ts, scanSegments
	// skips only fenced and inline code), so closed it is an element; but
	// never closed it is text as its author meant, and no syntax error.
	Literal  bool
	Attrs    []*Attr
	Parent   *Tag   // nil at the top level of the body
	Children []Node // tags, placeholders and code blocks, in order
	Index    int    // position in Component.Tags
}

// NodeSpan is the whole element.
func (t *Tag) NodeSpan() markdown.Span { return t.Span }

// Attr returns the attribute named name, or nil.
func (t *Tag) Attr(name string) *Attr {
	for _, a := range t.Attrs {
		if a.Kind != AttrSpread && a.Name == name {
			return a
		}
	}
	return nil
}

// HasSpread reports a {...spread} attribute, which the engine's scanner
// drops: it passes nothing.
func (t *Tag) HasSpread() bool {
	for _, a := range t.Attrs {
		if a.Kind == AttrSpread {
			return true
		}
	}
	return false
}

// AttrKind is how an attribute's value is written.
type AttrKind int

const (
	AttrString AttrKind = iota // name="text" or name='text'
	AttrExpr                   // name={expression}
	AttrBool                   // name alone: true
	AttrSpread                 // {...expression}, which the engine drops
)

// Attr is one attribute of an opening tag.
type Attr struct {
	Name     string
	NameSpan markdown.Span // empty for a spread
	Kind     AttrKind
	// Value is the text between the quotes or the braces (an expression's
	// source, a spread's included); empty for a boolean attribute.
	Value     string
	ValueSpan markdown.Span
	Span      markdown.Span // the whole attribute
}

// Placeholder is a text interpolation, {name.path}, {props.key} or
// {meta.key}.
type Placeholder struct {
	Span     markdown.Span // braces included
	Path     []string      // "props", "key", …
	PathSpan markdown.Span // the text between the braces
	// InCode is true inside an inline code span, where XMD still
	// interpolates (write \{ for a literal brace).
	InCode bool
	// Block is the executable code block the placeholder is in, or nil:
	// there only the bindings pass runs (spec §6.4).
	Block  *CodeBlock
	Parent *Tag
}

// NodeSpan is the placeholder, braces included.
func (p *Placeholder) NodeSpan() markdown.Span { return p.Span }

// CodeBlock is a fenced code block. Only executable ones matter: an eval
// block binds the names it declares, an exec block's {name} placeholders
// are interpolated (and recorded as Placeholders); nothing in an ordinary
// fence is.
type CodeBlock struct {
	Span    markdown.Span // fences included
	Info    string
	Content markdown.Span
	Eval    bool
	Exec    bool
	// As is the name an `as="name"` annotation, the last word of the info
	// string, binds to the block's result (spec §3.6); AsSpan is the name.
	As     string
	AsSpan markdown.Span
	Parent *Tag
}

// NodeSpan is the block, fences included.
func (c *CodeBlock) NodeSpan() markdown.Span { return c.Span }

// SyntaxError is something the parser could not read; it went on after it.
type SyntaxError struct {
	Span    markdown.Span
	Message string
	// Text is true for a closing tag that closes nothing: the engine reads
	// it as plain text and runs the document (RuleStrayClose), so it is no
	// error.
	Text bool
}

// scanner reads a body. Tags start at "<" and a capital letter anywhere in
// text, as XMD's boundary scanner does, except in fenced code, inline code
// spans and HTML comments.
type scanner struct {
	text  string
	c     *Component
	stack []*Tag
	// kids holds the children of the open tags, each one's after the
	// previous one's: kidStart[i] is where those of stack[i] begin. A tag's
	// children are copied out when it closes, at their final length.
	kids     []Node
	kidStart []int
	attrs    []*Attr  // the attributes of the opening tag being read
	segs     []string // the path of the placeholder being read

	tagSlab   slab[Tag]
	attrSlab  slab[Attr]
	phSlab    slab[Placeholder]
	cbSlab    slab[CodeBlock]
	attrRuns  runs[*Attr]
	nodeRuns  runs[Node]
	stringRun runs[string]
	// ticks are the runs of backticks by length (backtickRuns), made on the
	// first code span.
	ticks map[int][]int
	// commentEnd is where the HTML comment the scan is in ends (0: in
	// none); escapedAt is one past the offset of a "<" a backslash
	// precedes (0: none yet).
	commentEnd, escapedAt int
	// literal are the indented code blocks Markdown reads in the text, in
	// order (parseDoc); the scan passes them one by one.
	literal []markdown.Span
}

// scanBufs is a scanner's working memory, none of which outlives the
// scan: parses take it from a pool rather than growing it afresh, a dozen
// allocations for every document.
type scanBufs struct {
	stack    []*Tag
	kidStart []int
	kids     []Node
	attrs    []*Attr
	segs     []string
}

var scanBufsPool = sync.Pool{New: func() any { return new(scanBufs) }}

// maxPooled bounds the buffers kept, so that one deep or wide document
// does not pin large ones for good.
const maxPooled = 1 << 10

// put returns b to the pool, emptied and cleared: a pooled buffer keeps no
// document alive.
func (b *scanBufs) put() {
	b.stack = pooled(b.stack)
	b.kidStart = pooled(b.kidStart)
	b.kids = pooled(b.kids)
	b.attrs = pooled(b.attrs)
	b.segs = pooled(b.segs)
	scanBufsPool.Put(b)
}

// pooled is xs emptied and cleared for reuse, or nil when too large to keep.
func pooled[T any](xs []T) []T {
	if cap(xs) > maxPooled {
		return nil
	}
	clear(xs[:cap(xs)])
	return xs[:0]
}

// maxTag bounds how far an opening tag's attributes are read, so that
// many unterminated tags cost linear time.
const maxTag = 8 << 10

func (s *scanner) errorf(span markdown.Span, msg string) {
	s.c.Errors = append(s.c.Errors, SyntaxError{Span: span, Message: msg})
}

// stray records a closing tag that closes nothing, which the engine reads
// as text.
func (s *scanner) stray(span markdown.Span, msg string) {
	s.c.Errors = append(s.c.Errors, SyntaxError{Span: span, Message: msg, Text: true})
}

func (s *scanner) parent() *Tag {
	if len(s.stack) == 0 {
		return nil
	}
	return s.stack[len(s.stack)-1]
}

func (s *scanner) add(n Node) {
	if len(s.stack) > 0 {
		s.kids = append(s.kids, n)
	} else {
		s.c.Body = append(s.c.Body, n)
	}
}

// addPlaceholder adds p to the body and to Component.Placeholders. The
// scan only moves forward, so the list is in document order as it grows.
func (s *scanner) addPlaceholder(p *Placeholder) {
	s.add(p)
	s.c.Placeholders = append(s.c.Placeholders, p)
}

// pop closes the innermost open tag, giving it its children.
func (s *scanner) pop() *Tag {
	n := len(s.stack) - 1
	t, start := s.stack[n], s.kidStart[n]
	s.stack, s.kidStart = s.stack[:n], s.kidStart[:n]
	if len(s.kids) > start {
		t.Children = s.nodeRuns.take(s.kids[start:])
		clear(s.kids[start:])
		s.kids = s.kids[:start]
	}
	return t
}

// The classes of bytes the scanner and the expression reader ask about,
// one table lookup each: names are read a byte at a time, and a chain of
// range comparisons per byte was a visible share of reading them.
const (
	clIdentStart = 1 << iota // _ $ a-z A-Z
	clIdentPart              // an identifier start or 0-9
	clTagName                // in a tag name's segment: an identifier part but $
	clAttrName               // in an attribute name: A-Z a-z 0-9 _ - (the engine's parseAttributes)
	clSpace                  // space, \t, \n, \r, \f
	clExpr                   // what skipExpr stops at: { } " ' ` /
)

var class = func() (t [256]uint8) {
	for c := range 256 {
		b := byte(c)
		start := b == '_' || b == '$' || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
		part := start || (b >= '0' && b <= '9')
		if start {
			t[c] |= clIdentStart
		}
		if part {
			t[c] |= clIdentPart
		}
		if part && b != '$' {
			t[c] |= clAttrName
		}
		if part && b != '$' {
			t[c] |= clTagName
		}
		if b == '-' {
			t[c] |= clAttrName
		}
		if b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' {
			t[c] |= clSpace
		}
		if strings.IndexByte("{}\"'`/", b) >= 0 {
			t[c] |= clExpr
		}
	}
	return t
}()

func isUpper(c byte) bool      { return c >= 'A' && c <= 'Z' }
func isIdentStart(c byte) bool { return class[c]&clIdentStart != 0 }
func isIdentPart(c byte) bool  { return class[c]&clIdentPart != 0 }
func isSpace(c byte) bool      { return class[c]&clSpace != 0 }
func isLineBreak(c byte) bool  { return c == '\n' || c == '\r' }
func isBlankSpace(c byte) bool { return c == ' ' || c == '\t' }

// skipClass returns the offset of the first byte of text[i:end] not in
// the class cl, or end.
func skipClass(text string, i, end int, cl uint8) int {
	for i < end && class[text[i]]&cl != 0 {
		i++
	}
	return i
}

// plain is 1 for the bytes that start nothing the scanner reads, 0 for
// the others (~ for a fence, which ` also starts): bytes, so that eight
// lookups combine without a branch each.
var plain = func() (t [256]uint8) {
	for c := range t {
		if !strings.ContainsRune("\\`<{~", rune(c)) {
			t[c] = 1
		}
	}
	return t
}()

// skipPlain returns the offset of the first byte of text[i:end] that is not
// plain, or end. Prose is most of a document: eight bytes are tested per
// round, with one branch, before the byte-at-a-time tail.
func skipPlain(text string, i, end int) int {
	for end-i >= 8 {
		w := text[i : i+8]
		if plain[w[0]]&plain[w[1]]&plain[w[2]]&plain[w[3]]&
			plain[w[4]]&plain[w[5]]&plain[w[6]]&plain[w[7]] == 0 {
			break
		}
		i += 8
	}
	for i < end && plain[text[i]] != 0 {
		i++
	}
	return i
}

// lineStartBefore reports whether only blanks precede i on its line, and
// where the line starts: after a line break, or at start.
func lineStartBefore(text string, start, i int) (int, bool) {
	for i > start && isBlankSpace(text[i-1]) {
		i--
	}
	return i, i == start || isLineBreak(text[i-1])
}

// scan reads text[start:end].
func (s *scanner) scan(start, end int) {
	text := s.text
	i := start
	for i < end {
		c := text[i]
		// A fence opens a line, perhaps indented, with ` or ~: looked for
		// where those are, rather than at the start of every line.
		if c == '`' || c == '~' {
			if ls, ok := lineStartBefore(text, start, i); ok {
				if next, ok := s.fence(ls, end); ok {
					i = next
					continue
				}
			}
		}
		switch {
		case c == '\\' && i+1 < end && (text[i+1] == '{' || text[i+1] == '\\'):
			i += 2
		case c == '\\' && i+1 < end && text[i+1] == '<':
			// The engine has no escape for a tag: \<Name /> is an element.
			s.escapedAt = i + 2
			i++
		case c == '`':
			i = s.codeSpan(i, end)
		case c == '<' && i >= s.commentEnd && strings.HasPrefix(text[i:end], "<!--"):
			// Read on inside the comment: the engine's scanner does not
			// know comments, and a tag there is an element to it.
			s.commentEnd = end
			if j := strings.Index(text[i+4:end], "-->"); j >= 0 {
				s.commentEnd = i + 4 + j + 3
			}
			i += 4
		case c == '<' && i+2 < end && text[i+1] == '/' && isUpper(text[i+2]):
			i = s.literally(i, func() int { return s.closeTag(i, end) })
		case c == '<' && i+1 < end && isUpper(text[i+1]):
			i = s.literally(i, func() int { return s.openTag(i, end) })
		case c == '{' && i < s.commentEnd:
			// A comment's placeholders are not read: it shows nothing.
			i++
		case c == '{':
			if p, next := s.placeholder(i, end, false); p != nil {
				s.addPlaceholder(p)
				i = next
			} else {
				i++
			}
		default:
			// Skip to the next byte that can start something.
			i = skipPlain(text, i+1, end)
		}
	}
	for len(s.stack) > 0 {
		t := s.pop()
		t.Span.End, t.Inner.End = end, end
		t.Close = markdown.Span{Start: end, End: end}
		t.CloseName = t.Close
		if t.Literal {
			continue
		}
		s.errorf(t.Open, "<"+t.Name+"> is never closed, so XMD reads it as text and runs nothing: add </"+t.Name+">, or write it self-closing as <"+t.Name+" />")
	}
}

// literally reads the tag at i with read: in an HTML comment, after a
// backslash or in an indented code block, where Markdown shows no tag, what it cannot read is text as
// written, not a syntax error, and a tag it opens is Literal.
func (s *scanner) literally(i int, read func() int) int {
	for len(s.literal) > 0 && s.literal[0].End <= i {
		s.literal = s.literal[1:]
	}
	inCode := len(s.literal) > 0 && s.literal[0].Start <= i
	if i >= s.commentEnd && i+1 != s.escapedAt && !inCode {
		return read()
	}
	errs, tags := len(s.c.Errors), len(s.c.Tags)
	next := read()
	// What the tag itself could not be; a closing tag's report of a tag
	// it leaves unclosed stays.
	kept := s.c.Errors[:errs]
	for _, e := range s.c.Errors[errs:] {
		if !e.Text && len(s.c.Tags) == tags && e.Span.Start < i {
			kept = append(kept, e)
		}
	}
	s.c.Errors = kept
	if len(s.c.Tags) > tags {
		s.c.Tags[tags].Literal = true
	}
	return next
}

// fence reads a fenced code block starting on the line at i, indented by
// at most three spaces as the engine's scanner reads one
// (packages/core/src/scanner.ts, matchFenceOpen, findFenceClose): a fence
// indented further, or by a tab, is no fence to it. It runs to its closing
// fence, or to the end of the text as in CommonMark.
func (s *scanner) fence(i, end int) (int, bool) {
	text := s.text
	j := i
	for j < end && j-i < 3 && text[j] == ' ' {
		j++
	}
	if j+3 > end || (text[j] != '`' && text[j] != '~') {
		return 0, false
	}
	ch := text[j]
	n := 0
	for j+n < end && text[j+n] == ch {
		n++
	}
	if n < 3 {
		return 0, false
	}
	infoStart := j + n
	infoEnd := lineEnd(text, infoStart, end)
	info := strings.TrimSpace(text[infoStart:infoEnd])
	if ch == '`' && strings.Contains(info, "`") {
		return 0, false
	}
	contentStart := nextLine(text, infoEnd, end)
	blockEnd, contentEnd := end, end
	for l := contentStart; l < end; l = nextLine(text, lineEnd(text, l, end), end) {
		k := l
		for k < end && k-l < 3 && text[k] == ' ' {
			k++
		}
		m := 0
		for k+m < end && text[k+m] == ch {
			m++
		}
		le := lineEnd(text, l, end)
		if m >= n && strings.TrimSpace(text[k+m:le]) == "" {
			contentEnd, blockEnd = l, le
			break
		}
	}
	cb := s.cbSlab.new(i, len(text))
	*cb = CodeBlock{Span: markdown.Span{Start: i, End: blockEnd}, Info: info,
		Content: markdown.Span{Start: min(contentStart, contentEnd), End: contentEnd}, Parent: s.parent()}
	// The words after the language, read in place: most documents have a
	// fence every stage, and splitting each info string allocated.
	first := true
	for f := range strings.FieldsSeq(info) {
		if first {
			first = false
			continue // the language
		}
		switch f {
		case "eval":
			cb.Eval = true
		case "exec":
			cb.Exec = true
		}
	}
	// `as="name"` binds only as the last word, quoted, a legal name
	// (packages/core/src/scanner.ts, takeBindingAnnotation); any other
	// spelling is refused by the engine and binds nothing.
	if (cb.Eval || cb.Exec) && strings.HasSuffix(info, `"`) {
		if q := strings.LastIndexAny(info, " \t"); q >= 0 && strings.HasPrefix(info[q+1:], `as="`) {
			name := info[q+1+len(`as="`) : len(info)-1]
			if isBindingName(name) && !reservedWords[name] && strings.Count(info, " as=")+strings.Count(info, "\tas=") == 1 {
				at := infoStart + strings.Index(text[infoStart:infoEnd], info) + q + 1 + len(`as="`)
				cb.As, cb.AsSpan = name, markdown.Span{Start: at, End: at + len(name)}
			}
		}
	}
	s.add(cb)
	s.c.CodeBlocks = append(s.c.CodeBlocks, cb)
	if cb.Exec {
		// Executable content is interpolated like text.
		for k := cb.Content.Start; k < cb.Content.End; k++ {
			if text[k] == '\\' && k+1 < cb.Content.End {
				k++
				continue
			}
			if text[k] == '{' {
				if p, next := s.placeholder(k, cb.Content.End, false); p != nil {
					p.Block = cb
					s.addPlaceholder(p)
					k = next - 1
				}
			}
		}
	}
	return blockEnd, true
}

func lineEnd(text string, i, end int) int {
	for i < end && !isLineBreak(text[i]) {
		i++
	}
	return i
}

func nextLine(text string, i, end int) int {
	if i < end && text[i] == '\r' {
		i++
	}
	if i < end && text[i] == '\n' {
		i++
	}
	return i
}

// codeSpan skips an inline code span opened in the run of backticks at
// i, recording the placeholders in it, as the engine's scanner skips one
// (packages/core/src/scanner.ts, skipInlineCode): the backticks from an
// offset are closed by the next run of as many anywhere after them,
// across blank lines and fences, and what lies between is inert. With no
// such run the engine takes the first backtick for text and tries again
// at the next one, a shorter run: the first length, from the whole run
// down, that some later run has opens the span, and the backticks before
// it are text. None: the whole run is text.
func (s *scanner) codeSpan(i, end int) int {
	text := s.text
	e := i
	for e < end && text[e] == '`' {
		e++
	}
	if s.ticks == nil {
		s.ticks = backtickRuns(text[:end])
	}
	for n := e - i; n >= 1; n-- {
		runs := s.ticks[n]
		k := sort.SearchInts(runs, e)
		if k == len(runs) {
			continue
		}
		j := runs[k]
		for k := e; k < j; k++ {
			if text[k] == '\\' && k+1 < j {
				k++
				continue
			}
			if text[k] == '{' {
				if p, next := s.placeholder(k, j, true); p != nil {
					s.addPlaceholder(p)
					k = next - 1
				}
			}
		}
		return j + n
	}
	return e
}

// backtickRuns indexes the maximal runs of backticks of text by length:
// where each starts, in order. A closing run is looked up, not searched
// for, so unmatched backticks keep the scan linear.
func backtickRuns(text string) map[int][]int {
	runs := map[int][]int{}
	for i := strings.IndexByte(text, '`'); i >= 0; {
		n := 1
		for i+n < len(text) && text[i+n] == '`' {
			n++
		}
		runs[n] = append(runs[n], i)
		j := strings.IndexByte(text[i+n:], '`')
		if j < 0 {
			break
		}
		i += n + j
	}
	return runs
}

// placeholder reads {a.b.c} (an identifier path) or {props.…}/{meta.…} at i.
func (s *scanner) placeholder(i, end int, inCode bool) (*Placeholder, int) {
	text := s.text
	j := i + 1
	if j >= end || !isIdentStart(text[j]) {
		return nil, i + 1
	}
	path := s.segs[:0]
	for {
		k := j
		k = skipClass(text, k, end, clIdentPart)
		path = append(path, text[j:k])
		j = k
		if j < end && text[j] == '.' && j+1 < end && isIdentStart(text[j+1]) {
			j++
			continue
		}
		break
	}
	s.segs = path
	if j < end && text[j] == '}' {
		p := s.phSlab.new(i, len(text))
		*p = Placeholder{Span: markdown.Span{Start: i, End: j + 1}, Path: s.stringRun.take(path),
			PathSpan: markdown.Span{Start: i + 1, End: j}, InCode: inCode, Parent: s.parent()}
		return p, j + 1
	}
	// {props.x-y} and {meta.…}: the first interpolation pass takes any
	// key text up to "}".
	if len(path) >= 1 && (path[0] == "props" || path[0] == "meta") && strings.HasPrefix(text[i+1:end], path[0]+".") {
		k := i + 1 + len(path[0]) + 1
		for k < end && text[k] != '}' && !isLineBreak(text[k]) {
			k++
		}
		if k < end && text[k] == '}' && k > i+1+len(path[0])+1 {
			return &Placeholder{Span: markdown.Span{Start: i, End: k + 1},
				Path:     append([]string{path[0]}, strings.Split(text[i+2+len(path[0]):k], ".")...),
				PathSpan: markdown.Span{Start: i + 1, End: k}, InCode: inCode, Parent: s.parent()}, k + 1
		}
	}
	return nil, i + 1
}

// tagName reads a component name, dotted segments included, at i.
func tagName(text string, i, end int) int {
	j := i
	for {
		j = skipClass(text, j, end, clTagName)
		if j+1 < end && text[j] == '.' && isIdentStart(text[j+1]) {
			j++
			continue
		}
		return j
	}
}

func (s *scanner) openTag(i, end int) int {
	text := s.text
	end = min(end, i+maxTag)
	nameEnd := tagName(text, i+1, end)
	if nameEnd < end && !isSpace(text[nameEnd]) && text[nameEnd] != '/' && text[nameEnd] != '>' {
		return nameEnd // "<T," or "Array<T]": not a tag
	}
	t := s.tagSlab.new(i, len(text))
	t.Name, t.NameSpan = text[i+1:nameEnd], markdown.Span{Start: i + 1, End: nameEnd}
	s.attrs = s.attrs[:0]
	j := nameEnd
	for {
		for j < end && isSpace(text[j]) {
			j++
		}
		if j >= end {
			s.errorf(markdown.Span{Start: i, End: nameEnd}, "<"+t.Name+" is not closed by \">\" or \"/>\" before the end of the text")
			return nameEnd
		}
		switch c := text[j]; {
		case c == '/' && j+1 < end && text[j+1] == '>':
			t.SelfClosing, t.Closed = true, true
			t.Open = markdown.Span{Start: i, End: j + 2}
			t.Span, t.Inner = t.Open, markdown.Span{Start: j + 2, End: j + 2}
			t.Close, t.CloseName = t.Inner, t.Inner
			s.push(t)
			return j + 2
		case c == '>':
			t.Open = markdown.Span{Start: i, End: j + 1}
			t.Span = markdown.Span{Start: i, End: j + 1}
			t.Inner = markdown.Span{Start: j + 1, End: j + 1}
			s.push(t)
			s.stack = append(s.stack, t)
			s.kidStart = append(s.kidStart, len(s.kids))
			return j + 1
		case c == '{' && !strings.HasPrefix(text[j:end], "{.."):
			// The engine's scanner takes "{.." for a spread and anything
			// else at a name's place for no attribute: the tag is text
			// (packages/core/src/scanner.ts, parseAttributes).
			s.errorf(markdown.Span{Start: j, End: j + 1}, "<"+t.Name+" is text to the engine, not an element: a \"{\" here is neither name={…} nor a {...spread}")
			return nameEnd
		case c == '{':
			k, ok := skipExpr(text, j, end)
			if !ok {
				s.errorf(markdown.Span{Start: j, End: min(j+1, end)}, "the expression opened here in <"+t.Name+"> is never closed by \"}\"")
				return nameEnd
			}
			a := s.attrSlab.new(j, len(text))
			*a = Attr{Kind: AttrSpread, Value: text[j+1 : k-1],
				ValueSpan: markdown.Span{Start: j + 1, End: k - 1}, Span: markdown.Span{Start: j, End: k},
				NameSpan: markdown.Span{Start: j, End: j}}
			s.attrs = append(s.attrs, a)
			j = k
		case class[c]&clAttrName != 0:
			// A name is what the engine's scanner reads as one
			// ([A-Za-z0-9_-]+, parseAttributes): xlink:href or $x makes
			// the tag text.
			k := j
			k = skipClass(text, k, end, clAttrName)
			a := s.attrSlab.new(j, len(text))
			a.Name, a.NameSpan, a.Kind = text[j:k], markdown.Span{Start: j, End: k}, AttrBool
			a.Span = a.NameSpan
			a.ValueSpan = markdown.Span{Start: k, End: k}
			l := k
			for l < end && isBlankSpace(text[l]) {
				l++
			}
			if l < end && text[l] == '=' {
				l++
				for l < end && isBlankSpace(text[l]) {
					l++
				}
				switch {
				case l < end && (text[l] == '"' || text[l] == '\''):
					q := closingQuote(text[l+1:end], text[l])
					if q < 0 {
						s.errorf(markdown.Span{Start: l, End: l + 1}, "the value of "+a.Name+" in <"+t.Name+"> has no closing quote")
						return nameEnd
					}
					a.Kind, a.Value = AttrString, text[l+1:l+1+q]
					a.ValueSpan = markdown.Span{Start: l + 1, End: l + 1 + q}
					a.Span.End = l + 2 + q
				case l < end && text[l] == '{':
					e, ok := skipExpr(text, l, end)
					if !ok {
						s.errorf(markdown.Span{Start: l, End: l + 1}, "the expression of "+a.Name+" in <"+t.Name+"> is never closed by \"}\"")
						return nameEnd
					}
					a.Kind, a.Value = AttrExpr, text[l+1:e-1]
					a.ValueSpan = markdown.Span{Start: l + 1, End: e - 1}
					a.Span.End = e
				default:
					s.errorf(markdown.Span{Start: j, End: l}, "the value of "+a.Name+" in <"+t.Name+"> must be quoted (\"…\") or an expression ({…})")
					return nameEnd
				}
				k = a.Span.End
			}
			s.attrs = append(s.attrs, a)
			j = k
		default:
			if len(s.attrs) == 0 && !isSpace(text[nameEnd]) {
				return nameEnd
			}
			s.errorf(markdown.Span{Start: i, End: j + 1}, "<"+t.Name+" is not a well-formed tag: unexpected "+quoteByte(c))
			return nameEnd
		}
	}
}

// closingQuote is the offset in s of the quote that ends a quoted value,
// or -1: a backslash takes the byte after it, as the engine's scanner reads
// it (packages/core/src/scanner.ts, findClosingQuote), and the value is the
// text between the quotes, the backslashes kept.
func closingQuote(s string, quote byte) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case quote:
			return i
		}
	}
	return -1
}

func quoteByte(c byte) string {
	if c < 0x20 || c >= 0x7f {
		return "character"
	}
	return "\"" + string(c) + "\""
}

// push records a parsed opening tag.
func (s *scanner) push(t *Tag) {
	if len(s.attrs) > 0 {
		t.Attrs = s.attrRuns.take(s.attrs)
	}
	t.Parent = s.parent()
	t.Index = len(s.c.Tags)
	s.c.Tags = append(s.c.Tags, t)
	s.add(t)
}

func (s *scanner) closeTag(i, end int) int {
	text := s.text
	nameEnd := tagName(text, i+2, end)
	// Only "</Name>" closes, spelled so: the engine's scanner looks for
	// exactly that text (packages/core/src/scanner.ts, parseChildren).
	j := nameEnd
	if j >= end || text[j] != '>' {
		s.stray(markdown.Span{Start: i, End: nameEnd}, "</"+text[i+2:nameEnd]+" is not a closing tag (only </"+text[i+2:nameEnd]+"> is, with nothing before the \">\"): the engine renders it as text")
		return nameEnd
	}
	name := text[i+2 : nameEnd]
	close := markdown.Span{Start: i, End: j + 1}
	for k := len(s.stack) - 1; k >= 0; k-- {
		if s.stack[k].Name != name {
			continue
		}
		for len(s.stack) > k+1 {
			t := s.pop()
			t.Span.End, t.Inner.End = i, i
			t.Close, t.CloseName = markdown.Span{Start: i, End: i}, markdown.Span{Start: i, End: i}
			if !t.Literal {
				s.errorf(t.Open, "<"+t.Name+"> is not closed before </"+name+">")
			}
		}
		t := s.pop()
		t.Closed = true
		t.Span.End, t.Inner.End = close.End, i
		t.Close, t.CloseName = close, markdown.Span{Start: i + 2, End: nameEnd}
		return j + 1
	}
	s.stray(close, "</"+name+"> closes no open <"+name+">: the engine renders it as text, into the output")
	return j + 1
}

// skipExpr returns the offset after the "}" matching the "{" at i, skipping
// strings, template literals (with their ${…}) and comments.
func skipExpr(text string, i, end int) (int, bool) {
	depth := 0
	for j := i; j < end; j++ {
		if class[text[j]]&clExpr == 0 {
			continue // most of an expression is names and operators
		}
		switch c := text[j]; c {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j + 1, true
			}
		case '"', '\'':
			k := j + 1
			for k < end && text[k] != c && !isLineBreak(text[k]) {
				if text[k] == '\\' {
					k++
				}
				k++
			}
			if k >= end {
				return 0, false
			}
			j = k
		case '`':
			k, ok := skipTemplate(text, j, end)
			if !ok {
				return 0, false
			}
			j = k - 1
		case '/':
			if j+1 < end && text[j+1] == '*' {
				k := strings.Index(text[j+2:end], "*/")
				if k < 0 {
					return 0, false
				}
				j += 2 + k + 1
			}
		}
	}
	return 0, false
}

// skipTemplate returns the offset after the template literal opened at i.
func skipTemplate(text string, i, end int) (int, bool) {
	for j := i + 1; j < end; j++ {
		switch text[j] {
		case '\\':
			j++
		case '`':
			return j + 1, true
		case '$':
			if j+1 < end && text[j+1] == '{' {
				k, ok := skipExpr(text, j+1, end)
				if !ok {
					return 0, false
				}
				j = k - 1
			}
		}
	}
	return 0, false
}
