package workflow

import (
	"strings"
	"sync"

	"github.com/baton-md/baton/markdown"
)

// An expression is JavaScript; baton reads only what the rules need from
// it: the free names it reads (with their member paths) and, for a
// condition, its top-level conjuncts.

type tokKind int

const (
	tokIdent tokKind = iota
	tokPunct
	tokString
	tokNumber
	tokRegex
)

type token struct {
	kind  tokKind
	text  string
	start int // offset in the expression
	end   int
}

// lex tokenizes a JavaScript expression, tolerating anything: an
// unterminated string or template ends at the end of the text. Template
// literals contribute the tokens of their ${…} parts.
func lex(src string) []token {
	toks := make([]token, 0, 8)
	lexInto(src, 0, len(src), false, &toks)
	return toks
}

// lexInto appends the tokens of src[i:end] to toks; in a template's ${…}
// it stops after the "}" that closes it, and returns where it stopped.
func lexInto(src string, i, end int, inTemplate bool, toks *[]token) int {
	depth := 0
	for i < end {
		c := src[i]
		switch {
		case isSpace(c):
			i++
		case c == '/' && i+1 < end && src[i+1] == '/':
			i = lineEnd(src, i, end)
		case c == '/' && i+1 < end && src[i+1] == '*':
			if k := strings.Index(src[i+2:end], "*/"); k >= 0 {
				i += 2 + k + 2
			} else {
				i = end
			}
		case isIdentStart(c):
			j := i
			j = skipClass(src, j, end, clIdentPart)
			*toks = append(*toks, token{tokIdent, src[i:j], i, j})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < end && (isIdentPart(src[j]) || src[j] == '.') {
				j++
			}
			*toks = append(*toks, token{tokNumber, src[i:j], i, j})
			i = j
		case c == '"' || c == '\'':
			j := i + 1
			for j < end && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, end)
			*toks = append(*toks, token{tokString, src[i:j], i, j})
			i = j
		case c == '`':
			j := i + 1
			for j < end && src[j] != '`' {
				switch {
				case src[j] == '\\':
					j += 2
				case src[j] == '$' && j+1 < end && src[j+1] == '{':
					j = lexInto(src, j+2, end, true, toks)
				default:
					j++
				}
			}
			j = min(j+1, end)
			*toks = append(*toks, token{tokString, "``", i, j})
			i = j
		case c == '/' && regexAllowed(*toks):
			j := i + 1
			inClass := false
			for j < end && !isLineBreak(src[j]) {
				if src[j] == '\\' {
					j += 2
					continue
				}
				if src[j] == '[' {
					inClass = true
				} else if src[j] == ']' {
					inClass = false
				} else if src[j] == '/' && !inClass {
					break
				}
				j++
			}
			j = min(j+1, end)
			for j < end && isIdentPart(src[j]) {
				j++
			}
			*toks = append(*toks, token{tokRegex, src[i:j], i, j})
			i = j
		default:
			n := punctLen(src[i:end])
			switch c {
			case '{':
				depth++
			case '}':
				if depth == 0 && inTemplate {
					return i + 1
				}
				depth = max(depth-1, 0)
			}
			*toks = append(*toks, token{tokPunct, src[i : i+n], i, i + n})
			i += n
		}
	}
	return i
}

// punctLen is the length of the punctuator at the start of src (not
// empty): the first of "===", "!==", "...", "?.", "=>", "&&", "||", "??",
// "==", "!=", "<=", ">=" that it starts with, else one byte. Switched on
// the first byte rather than trying each in turn: expressions are mostly
// punctuation and names.
func punctLen(src string) int {
	at := func(i int, c byte) bool { return i < len(src) && src[i] == c }
	switch src[0] {
	case '=':
		switch {
		case at(1, '=') && at(2, '='):
			return 3
		case at(1, '>'), at(1, '='):
			return 2
		}
	case '!':
		switch {
		case at(1, '=') && at(2, '='):
			return 3
		case at(1, '='):
			return 2
		}
	case '.':
		if at(1, '.') && at(2, '.') {
			return 3
		}
	case '?':
		if at(1, '.') || at(1, '?') {
			return 2
		}
	case '&', '|':
		if at(1, src[0]) {
			return 2
		}
	case '<', '>':
		if at(1, '=') {
			return 2
		}
	}
	return 1
}

// regexAllowed reports whether a "/" after toks starts a regular
// expression rather than dividing.
func regexAllowed(toks []token) bool {
	if len(toks) == 0 {
		return true
	}
	t := toks[len(toks)-1]
	switch t.kind {
	case tokIdent:
		return keywords[t.text] && t.text != "this"
	case tokNumber, tokString, tokRegex:
		return false
	}
	return t.text != ")" && t.text != "]" && t.text != "}"
}

var keywords = set("typeof", "instanceof", "in", "of", "new", "void", "delete", "await", "yield", "function",
	"return", "if", "else", "const", "let", "var", "async", "class", "extends", "super", "null", "true", "false",
	"undefined", "this", "do", "while", "for", "switch", "case", "default", "break", "continue", "throw", "try",
	"catch", "finally", "import", "export", "arguments")

// globals are names an expression may read without a binding.
var globals = set("JSON", "Math", "Object", "Array", "String", "Number", "Boolean", "Date", "RegExp", "Error",
	"TypeError", "Promise", "Map", "Set", "WeakMap", "WeakSet", "Symbol", "BigInt", "Infinity", "NaN", "console",
	"globalThis", "parseInt", "parseFloat", "isNaN", "isFinite", "encodeURIComponent", "decodeURIComponent",
	"encodeURI", "decodeURI", "structuredClone", "Intl", "URL", "URLSearchParams", "TextEncoder", "TextDecoder",
	"atob", "btoa", "Reflect", "Proxy")

// lensByFirst records, for each first byte, the lengths of a set's names
// (bit n for length n, the last bit for any longer): most names an
// expression reads start with a byte, or have a length, that no keyword
// or global has, and are ruled out without hashing them.
type lensByFirst [256]uint64

var keywordLens, globalLens = lensOf(keywords), lensOf(globals)

func lensOf(m map[string]bool) *lensByFirst {
	var l lensByFirst
	for n := range m {
		l[n[0]] |= 1 << min(len(n), 63)
	}
	return &l
}

// may reports whether name (not empty) may be in the set.
func (l *lensByFirst) may(name string) bool {
	return l[name[0]]&(1<<min(len(name), 63)) != 0
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Ref is a name an expression or a placeholder reads.
type Ref struct {
	Name string
	Path []string // the member path after Name ("proceed" in cp.proceed)
	Span markdown.Span
}

// exprBufs are exprScratch's working buffers, which hold nothing once an
// expression is read: analyses take them from a pool (see scanBufs).
type exprBufs struct {
	toks   []token
	frames []bool
	refs   []Ref
	path   []string
}

var exprBufsPool = sync.Pool{New: func() any { return new(exprBufs) }}

// take gives x pooled buffers, until release.
func (x *exprScratch) take() {
	x.bufs = exprBufsPool.Get().(*exprBufs)
	x.toks, x.frames, x.refs, x.path = x.bufs.toks, x.bufs.frames, x.bufs.refs, x.bufs.path
}

// release returns x's buffers to the pool, emptied and cleared.
func (x *exprScratch) release() {
	b := x.bufs
	b.toks, b.frames, b.refs, b.path = pooled(x.toks), pooled(x.frames), pooled(x.refs), pooled(x.path)
	x.bufs, x.toks, x.frames, x.refs, x.path = nil, nil, nil, nil, nil
	exprBufsPool.Put(b)
}

// exprScratch is what reading a document's expressions reuses from one to
// the next: the tokens and brackets of the expression being read, the refs
// it returns (valid until the next call) and the chunks their paths are
// taken from.
type exprScratch struct {
	toks   []token
	frames []bool // for each open bracket, whether it opens an object literal
	refs   []Ref
	path   []string
	paths  runs[string]
	// read holds what recent expressions of the document read, their
	// spans relative to the expression: a workflow repeats the same few
	// (props.x, cp.proceed) at every stage, and copying what one read is
	// cheaper than lexing it again.
	read    recent[[]Ref]
	readRun runs[Ref]
	bufs    *exprBufs // the pooled buffers, between take and release
}

func (x *exprScratch) freeRefs(expr string, off int) []Ref {
	if rel, ok := x.read.get(expr); ok {
		refs := x.refs[:0]
		for _, r := range rel {
			r.Span.Start += off
			r.Span.End += off
			refs = append(refs, r)
		}
		x.refs = refs
		return refs
	}
	refs := x.lexRefs(expr)
	var rel []Ref
	if len(refs) > 0 {
		rel = x.readRun.take(refs)
	}
	x.read.put(expr, rel)
	for i := range refs {
		refs[i].Span.Start += off
		refs[i].Span.End += off
	}
	return refs
}

// lexRefs is freeRefs of expr read afresh, its spans relative to it.
func (x *exprScratch) lexRefs(expr string) []Ref {
	const off = 0
	x.toks = x.toks[:0]
	lexInto(expr, 0, len(expr), false, &x.toks)
	toks := x.toks
	var local map[string]bool // made only for an arrow function: most expressions have none
	// Arrow parameters: x => …, (a, { b }, [c]) => …
	for i, t := range toks {
		if t.text != "=>" || t.kind != tokPunct || i == 0 {
			continue
		}
		p := toks[i-1]
		if local == nil {
			local = map[string]bool{}
		}
		if p.kind == tokIdent {
			local[p.text] = true
			continue
		}
		if p.text != ")" {
			continue
		}
		depth := 0
		for j := i - 1; j >= 0; j-- {
			switch toks[j].text {
			case ")":
				depth++
			case "(":
				depth--
			}
			if toks[j].kind == tokIdent {
				local[toks[j].text] = true
			}
			if depth == 0 {
				break
			}
		}
	}
	stack := x.frames[:0]
	refs := x.refs[:0]
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		var prev, next token
		if i > 0 {
			prev = toks[i-1]
		}
		if i+1 < len(toks) {
			next = toks[i+1]
		}
		if t.kind == tokPunct {
			switch t.text {
			case "{":
				stack = append(stack, prev.text != ")" && prev.text != "=>")
			case "(", "[":
				stack = append(stack, false)
			case "}", ")", "]":
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
			}
			continue
		}
		if t.kind != tokIdent {
			continue
		}
		if prev.kind == tokPunct && (prev.text == "." || prev.text == "?.") {
			continue
		}
		inObject := len(stack) > 0 && stack[len(stack)-1]
		if inObject && (prev.text == "{" || prev.text == ",") && prev.kind == tokPunct && (next.text == ":" || next.text == "(") {
			continue // a key or a method
		}
		if keywordLens.may(t.text) && keywords[t.text] || globalLens.may(t.text) && globals[t.text] || local[t.text] {
			continue
		}
		r := Ref{Name: t.text, Span: markdown.Span{Start: off + t.start, End: off + t.end}}
		path := x.path[:0]
		for j := i + 1; j+1 < len(toks); j += 2 {
			if (toks[j].text == "." || toks[j].text == "?.") && toks[j].kind == tokPunct && toks[j+1].kind == tokIdent {
				path = append(path, toks[j+1].text)
				continue
			}
			break
		}
		if len(path) > 0 {
			r.Path = x.paths.take(path)
		}
		x.path = path
		refs = append(refs, r)
	}
	x.refs, x.frames = refs, stack[:0]
	return refs
}

// conjuncts splits a condition at its top-level "&&" (flattening
// parenthesised conjunctions) and normalizes each: no spaces, "?." read
// as ".", and "x === true", "!!x", "Boolean(x)" read as "x".
func conjuncts(expr string) []string {
	expr = stripParens(strings.TrimSpace(expr))
	parts := splitTop(expr, "&&")
	if len(parts) == 1 {
		return []string{normalizeCond(parts[0])}
	}
	var out []string
	for _, p := range parts {
		out = append(out, conjuncts(p)...)
	}
	return out
}

// splitTop splits expr at op outside brackets and strings.
func splitTop(expr, op string) []string {
	toks := lex(expr)
	depth, last := 0, 0
	var parts []string
	for _, t := range toks {
		if t.kind != tokPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case op:
			if depth == 0 {
				parts = append(parts, expr[last:t.start])
				last = t.end
			}
		}
	}
	return append(parts, expr[last:])
}

// stripParens removes parentheses that wrap the whole expression.
func stripParens(expr string) string {
	for len(expr) >= 2 && expr[0] == '(' && expr[len(expr)-1] == ')' {
		depth := 0
		wraps := true
		for _, t := range lex(expr) {
			if t.kind != tokPunct {
				continue
			}
			switch t.text {
			case "(":
				depth++
			case ")":
				depth--
				if depth == 0 && t.end != len(expr) {
					wraps = false
				}
			}
		}
		if !wraps {
			break
		}
		expr = strings.TrimSpace(expr[1 : len(expr)-1])
	}
	return expr
}

func normalizeCond(c string) string {
	c = stripParens(strings.TrimSpace(c))
	var b strings.Builder
	for _, t := range lex(c) {
		if t.text == "?." {
			b.WriteString(".")
			continue
		}
		if b.Len() > 0 && t.kind == tokIdent {
			if s := b.String(); isIdentPart(s[len(s)-1]) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(t.text)
	}
	c = b.String()
	for {
		switch {
		case strings.HasSuffix(c, "===true"):
			c = c[:len(c)-len("===true")]
		case strings.HasSuffix(c, "==true"):
			c = c[:len(c)-len("==true")]
		case strings.HasPrefix(c, "true===") || strings.HasPrefix(c, "true=="):
			c = strings.TrimLeft(c[4:], "=")
		case strings.HasPrefix(c, "!!"):
			c = c[2:]
		case strings.HasPrefix(c, "Boolean(") && strings.HasSuffix(c, ")"):
			c = c[len("Boolean(") : len(c)-1]
		default:
			return c
		}
		c = stripParens(c)
	}
}

// negated reports whether a normalized condition is "!x", "x===false" or
// "x==false", and returns x.
func negated(c string) (string, bool) {
	switch {
	case strings.HasPrefix(c, "!") && !strings.HasPrefix(c, "!="):
		rest := c[1:]
		if s := stripParens(rest); s != rest {
			return normalizeCond(s), true
		}
		if isMemberChain(rest) {
			return rest, true
		}
	case strings.HasSuffix(c, "===false"):
		return normalizeCond(c[:len(c)-len("===false")]), true
	case strings.HasSuffix(c, "==false"):
		return normalizeCond(c[:len(c)-len("==false")]), true
	}
	return "", false
}

// isMemberChain reports a normalized a.b.c.
func isMemberChain(s string) bool {
	toks := lex(s)
	for i, t := range toks {
		if (i%2 == 0) != (t.kind == tokIdent) || (i%2 == 1 && t.text != ".") {
			return false
		}
	}
	return len(toks)%2 == 1
}
