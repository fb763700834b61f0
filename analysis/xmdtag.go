package analysis

import (
	"bytes"
	"strings"
)

// A document is an XMD workflow when it holds a component invocation that
// XMD's own boundary scanner reads as one (taras/executable.md,
// packages/core/src/scanner.ts, parseComponentTag): "<", a name starting
// with a capital letter ([A-Za-z0-9._]), attributes each a name
// ([A-Za-z0-9_-]) alone or with a "…", '…' or {…} value (or a {...spread}),
// then "/>", or ">" and, further on, "</Name>" spelled exactly so, outside
// the fenced code and code spans its children hold. Anything else is text
// to the engine: the template placeholders of ordinary Markdown (`Option
// <X>`, `<Low | Medium | High>`) and generic types (`array<Record>`,
// `Workflow<T>`) are never closed, so they invoke nothing and do not make
// a document a workflow.
//
// baton looks only at tags outside code and block quotes, as CommonMark
// reads the document, and bounds what the scanner does not: an opening tag
// is read for at most maxOpenTag bytes, nesting to maxTagDepth, beyond
// which the candidate is not taken for an invocation, and the whole
// reading to a budget of steps linear in the text. Unclosed tags nested in
// unclosed tags make the grammar's own reading quadratic or worse; past the
// budget, a candidate is taken for an invocation when its closing tag
// occurs anywhere after it, or the text holds a "/>".

const (
	maxOpenTag  = 8 << 10
	maxTagDepth = 64
)

// xmdScan reads candidate tags of one text by the engine's grammar.
type xmdScan struct {
	text []byte
	// budget is the steps left; once it is spent, exhausted is set and
	// every reading fails.
	budget    int
	exhausted bool
	// failed remembers the offsets where no element was read.
	failed map[int]bool
	// lastSelfClose is where "/>" last occurs (-1: nowhere), once looked
	// for.
	lastSelfClose int
	selfCloseRead bool
	// lastClose holds, per name, where "</Name>" last occurs (absent:
	// never), indexed in one pass when first asked: a tag whose name is
	// never closed after it fails without a scan of the rest of the text.
	lastClose map[string]int
}

// isXMDTag reports whether the text at start is a component invocation XMD
// closes: self-closing, or with its closing tag further on.
func (s *xmdScan) isXMDTag(start int) bool {
	if s.budget == 0 && !s.exhausted {
		s.budget = 32*len(s.text) + 1<<16
	}
	if s.exhausted {
		return s.roughTag(start)
	}
	_, ok := s.tag(start, 0)
	if s.exhausted {
		return s.roughTag(start)
	}
	return ok
}

// roughTag is the reading past the budget: "</Name>" after the tag at
// start, or a "/>" after it.
func (s *xmdScan) roughTag(start int) bool {
	pos := start + 1
	for pos < len(s.text) && (isASCIILetter(s.text[pos]) || isDigit(s.text[pos]) || s.text[pos] == '.' || s.text[pos] == '_') {
		pos++
	}
	if !s.selfCloseRead {
		s.lastSelfClose, s.selfCloseRead = bytes.LastIndex(s.text, []byte("/>")), true
	}
	return s.lastSelfClose >= pos || s.closerAt(string(s.text[start+1:pos])) >= pos
}

// closerAt is where "</name>" last occurs, or -1. The first call indexes
// every closing tag of the text in one pass: a page of many component
// names asked each in a search of its own.
func (s *xmdScan) closerAt(name string) int {
	if s.lastClose == nil {
		s.lastClose = map[string]int{}
		t := s.text
		for i := bytes.Index(t, []byte("</")); i >= 0; {
			end := i + 2
			for end < len(t) && (isASCIILetter(t[end]) || isDigit(t[end]) || t[end] == '.' || t[end] == '_') {
				end++
			}
			if end > i+2 && end < len(t) && t[end] == '>' {
				s.lastClose[string(t[i+2:end])] = i
			}
			j := bytes.Index(t[i+2:], []byte("</"))
			if j < 0 {
				break
			}
			i += 2 + j
		}
	}
	if last, ok := s.lastClose[name]; ok {
		return last
	}
	return -1
}

// spend takes n steps from the budget, reporting false once it is spent.
func (s *xmdScan) spend(n int) bool {
	s.budget -= n
	if s.budget < 0 {
		s.exhausted = true
	}
	return !s.exhausted
}

// tag parses a component element at start ("<"), returning its end.
func (s *xmdScan) tag(start, depth int) (int, bool) {
	t := s.text
	if depth > maxTagDepth || start+1 >= len(t) || t[start] != '<' || !isUpper(t[start+1]) || s.failed[start] || !s.spend(1) {
		return 0, false
	}
	end, ok := s.element(start, depth)
	if !ok && !s.exhausted {
		if s.failed == nil {
			s.failed = map[int]bool{}
		}
		s.failed[start] = true
	}
	return end, ok
}

// element is tag, once the checks are made.
func (s *xmdScan) element(start, depth int) (int, bool) {
	t := s.text
	pos := start + 1
	for pos < len(t) && (isASCIILetter(t[pos]) || isDigit(t[pos]) || t[pos] == '.' || t[pos] == '_') {
		pos++
	}
	name := string(t[start+1 : pos])
	limit := min(len(t), start+maxOpenTag)
	pos, ok := s.attributes(pos, limit)
	if !ok {
		return 0, false
	}
	pos = skipSpace(t, pos, limit)
	if pos < limit && t[pos] == '/' {
		if pos+1 < limit && t[pos+1] == '>' {
			return pos + 2, true
		}
		return 0, false
	}
	if pos >= limit || t[pos] != '>' {
		return 0, false
	}
	return s.children(pos+1, name, depth)
}

// attributes reads the attributes from pos up to limit, returning where
// "/" or ">" ends them.
func (s *xmdScan) attributes(pos, limit int) (int, bool) {
	t := s.text
	for {
		pos = skipSpace(t, pos, limit)
		if pos >= limit {
			return 0, false
		}
		if t[pos] == '/' || t[pos] == '>' {
			return pos, true
		}
		if t[pos] == '{' && pos+2 < limit && t[pos+1] == '.' && t[pos+2] == '.' {
			end := matchingBrace(t, pos, limit)
			if end < 0 || !s.spend(end-pos) {
				return 0, false
			}
			pos = end + 1
			continue
		}
		nameStart := pos
		for pos < limit && (isASCIILetter(t[pos]) || isDigit(t[pos]) || t[pos] == '_' || t[pos] == '-') {
			pos++
		}
		if pos == nameStart {
			return 0, false
		}
		pos = skipSpace(t, pos, limit)
		if pos >= limit || t[pos] != '=' {
			continue // a boolean attribute
		}
		pos = skipSpace(t, pos+1, limit)
		if pos >= limit {
			return 0, false
		}
		var end int
		switch t[pos] {
		case '"', '\'':
			end = closingQuote(t, pos+1, limit, t[pos])
		case '{':
			end = matchingBrace(t, pos, limit)
		default:
			return 0, false
		}
		if end < 0 || !s.spend(end-pos) {
			return 0, false
		}
		pos = end + 1
	}
}

// children reads an element's content from pos to its "</name>",
// returning the offset after it: fenced code and code spans are skipped,
// nested elements read whole, as the engine's parseChildren does.
func (s *xmdScan) children(pos int, name string, depth int) (int, bool) {
	t := s.text
	closer := "</" + name + ">"
	if s.lastClose == nil && !s.spend(len(t)/16) { // the closers' index, once
		return 0, false
	}
	last := s.closerAt(name)
	for pos < len(t) {
		if pos > last || !s.spend(1) {
			return 0, false
		}
		if bytes.HasPrefix(t[pos:], []byte(closer)) {
			return pos + len(closer), true
		}
		if end, ok := fenceAt(t, pos); ok {
			pos = end
			continue
		}
		if t[pos] == '`' {
			if end := codeSpanEnd(t, pos); end >= 0 {
				pos = end
				continue
			}
		}
		if t[pos] == '<' && pos+1 < len(t) && isUpper(t[pos+1]) {
			if end, ok := s.tag(pos, depth+1); ok {
				pos = end
				continue
			}
		}
		pos++
	}
	return 0, false
}

// fenceAt reads a fenced code block opening at the start of the line at
// pos (up to three spaces, three or more backticks or tildes; a backtick
// fence's info string holds no backtick), returning the offset after its
// closing fence, or the end of the text when it is never closed.
func fenceAt(t []byte, pos int) (int, bool) {
	if pos > 0 && t[pos-1] != '\n' {
		return 0, false
	}
	i := pos
	for i < len(t) && i-pos < 3 && t[i] == ' ' {
		i++
	}
	if i >= len(t) || (t[i] != '`' && t[i] != '~') {
		return 0, false
	}
	c, n := t[i], 0
	for i < len(t) && t[i] == c {
		i++
		n++
	}
	if n < 3 {
		return 0, false
	}
	lineEnd := bytes.IndexByte(t[i:], '\n')
	info := t[i:]
	if lineEnd >= 0 {
		info = t[i : i+lineEnd]
	}
	if c == '`' && bytes.IndexByte(info, '`') >= 0 {
		return 0, false
	}
	if lineEnd < 0 {
		return len(t), true
	}
	for p := i + lineEnd + 1; p < len(t); {
		q := p
		for q < len(t) && q-p < 3 && t[q] == ' ' {
			q++
		}
		m := 0
		for q < len(t) && t[q] == c {
			q++
			m++
		}
		if m >= n {
			for q < len(t) && t[q] == ' ' {
				q++
			}
			if q >= len(t) {
				return len(t), true
			}
			if t[q] == '\n' {
				return q + 1, true
			}
		}
		nl := bytes.IndexByte(t[q:], '\n')
		if nl < 0 {
			return len(t), true
		}
		p = q + nl + 1
	}
	return len(t), true
}

// codeSpanEnd is the offset after the code span opening at pos (a run of
// backticks closed by a run of the same length), or -1 when none closes.
func codeSpanEnd(t []byte, pos int) int {
	p := pos
	for p < len(t) && t[p] == '`' {
		p++
	}
	n := p - pos
	for p < len(t) {
		if t[p] != '`' {
			p++
			continue
		}
		q := p
		for q < len(t) && t[q] == '`' {
			q++
		}
		if q-p == n {
			return q
		}
		p = q
	}
	return -1
}

// matchingBrace is the offset of the "}" closing the "{" at start, skipping
// quoted strings and template literals, or -1 before limit.
func matchingBrace(t []byte, start, limit int) int {
	depth := 0
	for pos := start; pos < limit; pos++ {
		switch c := t[pos]; c {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return pos
			}
		case '"', '\'':
			end := closingQuote(t, pos+1, limit, c)
			if end < 0 {
				return -1
			}
			pos = end
		case '`':
			end := templateEnd(t, pos, limit)
			if end < 0 {
				return -1
			}
			pos = end
		}
	}
	return -1
}

// templateEnd is the offset of the backtick closing the template literal
// at start, or -1.
func templateEnd(t []byte, start, limit int) int {
	for pos := start + 1; pos < limit; pos++ {
		switch t[pos] {
		case '`':
			return pos
		case '\\':
			pos++
		case '$':
			if pos+1 < limit && t[pos+1] == '{' {
				end := matchingBrace(t, pos+1, limit)
				if end < 0 {
					return -1
				}
				pos = end
			}
		}
	}
	return -1
}

// closingQuote is the offset of the quote q ending a string from pos
// (a backslash escapes the next byte), or -1.
func closingQuote(t []byte, pos, limit int, q byte) int {
	for ; pos < limit; pos++ {
		switch t[pos] {
		case '\\':
			pos++
		case q:
			return pos
		}
	}
	return -1
}

// skipSpace skips JavaScript's ASCII white space.
func skipSpace(t []byte, pos, limit int) int {
	for pos < limit && strings.IndexByte(" \t\n\r\v\f", t[pos]) >= 0 {
		pos++
	}
	return pos
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
