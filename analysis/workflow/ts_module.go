package workflow

import (
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	jsparse "github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
	"go.yaml.in/yaml/v3"
)

// What baton reads of a TypeScript component's code, as tokens: what its
// default export is, and the value of `export const props` and
// `export const returns` when it is written as a literal. The engine
// imports the module (packages/core/src/execute.ts, durableImportComponent)
// and takes whatever those exports hold; baton reads only what the text
// fixes beyond doubt, and says nothing of the rest: a name imported from
// elsewhere, a call, a spread, a binding assigned again. TypeScript's own
// syntax is tokens like any other; where it could change what a token
// means, the module is not judged.

// jsTok is a token of a module that is not space or a comment.
type jsTok struct {
	tt    js.TokenType
	text  string
	off   int  // byte offset in the module
	nl    bool // a line break comes before it
	brace int  // how many `{` groups hold it
	in    int  // the opening token of the innermost group that holds it; -1 for none
	// match is, for `(`, `[`, `{` and a template's `${`, the index of
	// the token that closes it; -1 for any other token.
	match int
}

// maxTSTokens bounds the tokens baton reads of one module.
const maxTSTokens = 1 << 20

// jsTokens is src as tokens, a `/` read as a regular expression where an
// expression may start, brackets paired; false when baton cannot read it
// with confidence (the lexer stops, brackets do not pair).
func jsTokens(src string) ([]jsTok, bool) {
	l := js.NewLexer(jsparse.NewInputString(src))
	var toks []jsTok
	var stack []int
	off, nl, braces := 0, false, 0
	for {
		start := off
		tt, data := l.Next()
		if tt == js.ErrorToken {
			if l.Err() == io.EOF && len(stack) == 0 {
				return toks, true
			}
			return nil, false
		}
		if (tt == js.DivToken || tt == js.DivEqToken) && regexMayStart(toks) {
			if tt, data = l.RegExp(); tt == js.ErrorToken {
				return nil, false
			}
		}
		off = start + len(data)
		switch tt {
		case js.WhitespaceToken, js.CommentToken:
			continue
		case js.LineTerminatorToken, js.CommentLineTerminatorToken:
			nl = true
			continue
		}
		if len(toks) == maxTSTokens {
			return nil, false
		}
		i := len(toks)
		t := jsTok{tt: tt, text: string(data), off: start, nl: nl, brace: braces, in: -1, match: -1}
		nl = false
		if len(stack) > 0 {
			t.in = stack[len(stack)-1]
		}
		pop := func(ok func(js.TokenType) bool) bool {
			if len(stack) == 0 || !ok(toks[stack[len(stack)-1]].tt) {
				return false
			}
			toks[stack[len(stack)-1]].match = i
			stack = stack[:len(stack)-1]
			return true
		}
		is := func(want js.TokenType) func(js.TokenType) bool {
			return func(tt js.TokenType) bool { return tt == want }
		}
		template := func(tt js.TokenType) bool { return tt == js.TemplateStartToken || tt == js.TemplateMiddleToken }
		ok := true
		switch tt {
		case js.OpenBraceToken:
			braces++
			stack = append(stack, i)
		case js.OpenParenToken, js.OpenBracketToken, js.TemplateStartToken:
			stack = append(stack, i)
		case js.CloseParenToken:
			ok = pop(is(js.OpenParenToken))
		case js.CloseBracketToken:
			ok = pop(is(js.OpenBracketToken))
		case js.CloseBraceToken:
			ok = pop(is(js.OpenBraceToken))
			braces--
		case js.TemplateMiddleToken:
			if ok = pop(template); ok {
				stack = append(stack, i)
			}
		case js.TemplateEndToken:
			ok = pop(template)
		}
		if !ok {
			return nil, false
		}
		toks = append(toks, t)
	}
}

// regexMayStart reports whether a `/` after toks starts a regular
// expression: where an expression may start, not after an operand.
func regexMayStart(toks []jsTok) bool {
	if len(toks) == 0 {
		return true
	}
	p := toks[len(toks)-1]
	switch p.tt {
	case js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken, js.IncrToken, js.DecrToken,
		js.StringToken, js.TemplateToken, js.TemplateEndToken, js.RegExpToken, js.PrivateIdentifierToken,
		js.ThisToken, js.SuperToken, js.TrueToken, js.FalseToken, js.NullToken:
		return false
	}
	switch {
	case js.IsNumeric(p.tt):
		return false
	case js.IsPunctuator(p.tt) || js.IsOperator(p.tt) || js.IsReservedWord(p.tt):
		return true
	}
	return p.text == "of" // an identifier, but for-of's
}

// tsModule is a module's text and its tokens.
type tsModule struct {
	src   string
	toks  []jsTok
	lines []int // the offset of each line's start, made when first asked

	// The module's top-level bindings, by name: what declares each.
	bindings map[string][]tsBinding
}

// tsBinding is a declaration of a top-level name.
type tsBinding struct {
	kind string // "function" (a declaration), "class", "const", or "other"
	at   int    // the declaration's first token (function, async, class), or a const's initializer
}

func (m *tsModule) tok(i int) jsTok {
	if i < 0 || i >= len(m.toks) {
		return jsTok{tt: js.ErrorToken, match: -1}
	}
	return m.toks[i]
}

// is reports whether token i is the punctuator or word text.
func (m *tsModule) is(i int, text string) bool {
	t := m.tok(i)
	return t.tt != js.ErrorToken && t.tt != js.StringToken && t.tt != js.TemplateToken && t.text == text
}

// word reports an identifier or a keyword at i.
func (m *tsModule) word(i int) bool {
	return js.IsIdentifierName(m.tok(i).tt)
}

// after is the index after the group or template that starts at i, or
// after token i.
func (m *tsModule) after(i int) int {
	t := m.tok(i)
	if t.tt == js.TemplateStartToken {
		for t.match >= 0 {
			i, t = t.match, m.tok(t.match)
		}
		return i + 1
	}
	if t.match >= 0 {
		return t.match + 1
	}
	return i + 1
}

// member reports a token reached as a property: after `.` or `?.`.
func (m *tsModule) member(i int) bool {
	return m.is(i-1, ".") || m.is(i-1, "?.")
}

// pos is the line and column (1-based, in characters) of offset off.
func (m *tsModule) pos(off int) (line, col int) {
	if m.lines == nil {
		m.lines = []int{0}
		for i := 0; i < len(m.src); i++ {
			if m.src[i] == '\n' {
				m.lines = append(m.lines, i+1)
			}
		}
	}
	l := sort.SearchInts(m.lines, off+1) - 1
	return l + 1, utf8.RuneCountInString(m.src[m.lines[l]:off]) + 1
}

func (m *tsModule) where(i int) string {
	l, c := m.pos(m.tok(i).off)
	return strconv.Itoa(l) + ":" + strconv.Itoa(c)
}

// exprEnds reports whether the expression before i ends where i is: at a
// semicolon, the end of the module, a comma (in a declaration, decl), or
// a line that starts a statement; a TypeScript `as T` or `satisfies T`
// between, which changes no value, is passed over.
func (m *tsModule) exprEnds(i int, decl bool) bool {
	for (m.is(i, "as") || m.is(i, "satisfies")) && !m.tok(i).nl {
		if i = m.skipType(i + 1); i < 0 {
			return false
		}
	}
	t := m.tok(i)
	switch {
	case i >= len(m.toks) || t.tt == js.SemicolonToken:
		return true
	case t.tt == js.CommaToken:
		return decl
	case t.nl && js.IsIdentifierName(t.tt):
		switch t.text {
		case "in", "instanceof", "as", "satisfies":
			return false
		}
		return true
	}
	return false
}

// skipType is the index after the TypeScript type that starts at i, -1
// when baton does not follow it.
func (m *tsModule) skipType(i int) int {
	angle, operand := 0, true
	for i < len(m.toks) {
		t := m.toks[i]
		if angle == 0 && !operand {
			switch t.text {
			case "|", "&", ".", "[", "<", "=>":
				if t.nl && t.text != "|" && t.text != "&" {
					return i
				}
			default:
				return i
			}
		}
		switch t.tt {
		case js.OpenParenToken, js.OpenBraceToken, js.OpenBracketToken, js.TemplateStartToken:
			i, operand = m.after(i), false
			continue
		case js.LtToken:
			angle++
			operand = true
		case js.GtToken, js.GtGtToken, js.GtGtGtToken:
			if angle -= len(t.text); angle < 0 {
				return -1
			}
			operand = false
		case js.BitOrToken, js.BitAndToken, js.DotToken, js.ArrowToken, js.CommaToken, js.ColonToken, js.QuestionToken:
			if angle == 0 && (t.tt == js.CommaToken || t.tt == js.ColonToken || t.tt == js.QuestionToken) {
				return i
			}
			operand = true
		case js.StringToken, js.TemplateToken:
			operand = false
		default:
			switch {
			case js.IsNumeric(t.tt):
				operand = false
			case js.IsIdentifierName(t.tt):
				switch t.text {
				case "keyof", "typeof", "readonly", "unique", "infer", "extends":
					operand = true
				default:
					operand = false
				}
			case t.tt == js.SubToken && angle > 0:
				operand = true
			default:
				return -1
			}
		}
		i++
	}
	if angle != 0 {
		return -1
	}
	return i
}

// skipAngles is the index after the `<…>` that starts at i, -1 when it
// is not one.
func (m *tsModule) skipAngles(i int) int {
	depth := 0
	for ; i < len(m.toks); i++ {
		t := m.toks[i]
		switch t.tt {
		case js.LtToken:
			depth++
		case js.GtToken, js.GtGtToken, js.GtGtGtToken:
			if depth -= len(t.text); depth < 0 {
				return -1
			} else if depth == 0 {
				return i + 1
			}
		case js.SemicolonToken:
			return -1
		default:
			i = m.after(i) - 1
		}
	}
	return -1
}

// statementStart reports whether a statement may start at top-level
// token i, given the one before it at the top level, prev (-1 for none).
func (m *tsModule) statementStart(i, prev int) bool {
	if prev < 0 {
		return true
	}
	p := m.tok(prev)
	switch p.tt {
	case js.SemicolonToken, js.CloseBraceToken:
		return true
	}
	if !m.tok(i).nl {
		return false
	}
	// After a line break, unless the line before asks for more.
	return !(js.IsOperator(p.tt) || js.IsPunctuator(p.tt) && p.tt != js.CloseParenToken && p.tt != js.CloseBracketToken)
}

// tsExports is what baton reads of a module's exports.
type tsExports struct {
	def     tsDef
	props   *tsDecl // nil: none, or not a literal baton reads
	returns *tsDecl
}

// tsDecl is `export const props = <literal>` (or returns): the name, and
// the value as a YAML node.
type tsDecl struct {
	key, value *yaml.Node
}

// tsDef is what the module's default export is, as far as its text
// decides it.
type tsDef struct {
	kind tsKind
	what string // the value, for a message: "an object", "function Run (1:16)"
	at   int    // for tsYield, the yield's offset in the module
}

type tsKind int

const (
	tsUnknown        tsKind = iota
	tsGenerator             // a generator function: the contract
	tsNotFunction           // an object, a number, …: refused at the import
	tsReturnsNothing        // a function, not a generator, with no return
	tsAsync                 // an async function: it returns a promise
	tsAsyncGenerator        // an async generator function
	tsClass                 // a class: called without new
	tsYield                 // yield in a function that is not a generator: the module does not load
)

// readTSExports reads src's default export and its props and returns
// declarations; ok is false when the module cannot be read with
// confidence.
func readTSExports(src string) (ex tsExports, ok bool) {
	toks, ok := jsTokens(src)
	if !ok {
		return ex, false
	}
	m := &tsModule{src: src, toks: toks, bindings: map[string][]tsBinding{}}
	var defaults []int // the token after each `export default`, -1 for an export clause's
	defaultName := -1  // the local name an export clause exports as default, its token
	elsewhere := false // a default from another module
	decls := map[string][]int{}
	others := map[string]bool{} // props or returns exported otherwise
	prev := -1
	for i := 0; i < len(toks); prev, i = m.after(i)-1, m.after(i) {
		t := toks[i]
		if m.member(i) || !m.statementStart(i, prev) {
			continue
		}
		switch {
		case t.tt == js.ExportToken:
			switch {
			case m.is(i+1, "default"):
				defaults = append(defaults, i+2)
				m.declare(i + 2)
			case m.is(i+1, "{"):
				close := toks[i+1].match
				from := m.is(close+1, "from")
				for j := i + 2; j < close; j++ {
					if m.is(j, "type") && m.word(j+1) && !m.is(j+1, "as") {
						j++ // a type's name, TypeScript's inline `type`
					}
					local, exported := j, j
					if m.is(j+1, "as") {
						exported = j + 2
						j += 2
					}
					name := m.tok(exported).text
					if m.tok(exported).tt == js.StringToken {
						name, _ = jsUnquote(name)
					}
					switch name {
					case "default":
						if from {
							elsewhere = true
						} else {
							defaults = append(defaults, -1)
							defaultName = local
						}
					case "props", "returns":
						others[name] = true
					}
					if !m.is(j+1, ",") && j+1 != close {
						return ex, false
					}
					j++
				}
			case m.is(i+1, "const"):
				m.declarations(i+1, decls)
			case m.is(i+1, "let") || m.is(i+1, "var"):
				m.declarations(i+1, nil)
				if m.is(i+2, "props") || m.is(i+2, "returns") {
					others[toks[i+2].text] = true
				}
			case m.is(i+1, "*"):
				elsewhere = true
			default:
				m.declare(i + 1)
			}
		case t.tt == js.ImportToken && !m.is(i+1, "(") && !m.is(i+1, "."):
			for j := i + 1; j < len(toks) && toks[j].tt != js.StringToken && toks[j].tt != js.SemicolonToken; j = m.after(j) {
				if toks[j].tt == js.OpenBraceToken {
					for k := j + 1; k < toks[j].match; k++ {
						if m.word(k) {
							m.bind(toks[k].text, tsBinding{kind: "other"})
						}
					}
				} else if m.word(j) {
					m.bind(toks[j].text, tsBinding{kind: "other"})
				}
			}
		default:
			m.declare(i)
		}
	}
	switch {
	case elsewhere || len(defaults) != 1:
	case defaultName >= 0:
		ex.def = m.resolve(toks[defaultName].text, 0)
	default:
		ex.def = m.value(defaults[0], true, false, 0)
	}
	for _, name := range []string{"props", "returns"} {
		if others[name] || len(decls[name]) != 1 || m.mutated(name, decls[name][0]) {
			continue
		}
		at := decls[name][0]
		init := m.initializer(at)
		if init < 0 {
			continue
		}
		v, next, ok := m.literal(init, 0)
		if !ok || !m.exprEnds(next, true) {
			continue
		}
		l, c := m.pos(toks[at].off)
		d := &tsDecl{key: &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name, Line: l, Column: c}, value: v}
		if name == "props" {
			ex.props = d
		} else {
			ex.returns = d
		}
	}
	return ex, true
}

// bind records a declaration of a top-level name.
func (m *tsModule) bind(name string, b tsBinding) {
	m.bindings[name] = append(m.bindings[name], b)
}

// declare records what the statement at i declares, if it declares.
func (m *tsModule) declare(i int) {
	t := m.tok(i)
	switch {
	case t.tt == js.FunctionToken || t.text == "async" && m.is(i+1, "function") && !m.tok(i+1).nl:
		j := i + 1
		if t.text == "async" {
			j++
		}
		if m.is(j, "*") {
			j++
		}
		if m.word(j) {
			m.bind(m.tok(j).text, tsBinding{kind: "function", at: i})
		}
	case t.tt == js.ClassToken || t.text == "abstract" && m.is(i+1, "class"):
		j := i + 1
		if t.text == "abstract" {
			j++
		}
		if m.word(j) && !m.is(j, "extends") && !m.is(j, "implements") {
			m.bind(m.tok(j).text, tsBinding{kind: "class", at: i})
		}
	case t.tt == js.ConstToken || t.tt == js.LetToken || t.tt == js.VarToken:
		m.declarations(i, nil)
	case t.text == "enum" || t.text == "namespace" || t.text == "module" || t.text == "declare":
		// A name of TypeScript's that may hold a value: not a function
		// baton follows.
		for j := i + 1; j < i+4 && m.word(j); j++ {
			m.bind(m.tok(j).text, tsBinding{kind: "other"})
		}
	}
}

// declarations records the names a `const`, `let` or `var` at i binds;
// the exported `props` and `returns` of a const go to decls, when given,
// by the index of their name.
func (m *tsModule) declarations(i int, decls map[string][]int) {
	kind := "other"
	if m.tok(i).tt == js.ConstToken {
		kind = "const"
	}
	j := i + 1
	for j < len(m.toks) {
		switch {
		case m.word(j):
			name := m.tok(j).text
			if decls != nil && (name == "props" || name == "returns") {
				decls[name] = append(decls[name], j)
			}
			if init := m.initializer(j); init >= 0 && kind == "const" {
				m.bind(name, tsBinding{kind: "const", at: init})
			} else {
				m.bind(name, tsBinding{kind: "other"})
			}
		case m.is(j, "{") || m.is(j, "["):
			// A pattern: every name in it, as bound to something baton
			// does not follow.
			for k := j + 1; k < m.tok(j).match; k++ {
				if m.word(k) {
					m.bind(m.tok(k).text, tsBinding{kind: "other"})
				}
			}
		default:
			return
		}
		// On to a comma at this level, if the declaration goes on.
		prev := j
		for j = m.after(j); j < len(m.toks); prev, j = m.after(j)-1, m.after(j) {
			if m.is(j, ",") {
				break
			}
			if m.is(j, ";") || m.statementStart(j, prev) && m.tok(j).nl {
				return
			}
		}
		j++
	}
}

// initializer is the index of the value the declared name at i is
// initialized with (past a type annotation), -1 when there is none.
func (m *tsModule) initializer(i int) int {
	j := i + 1
	if m.is(j, "!") {
		j++
	}
	if m.is(j, ":") {
		if j = m.skipType(j + 1); j < 0 {
			return -1
		}
	}
	if !m.is(j, "=") {
		return -1
	}
	return j + 1
}

// mutated reports whether the module may change the value of the
// top-level const name (declared at the token decl) after its
// declaration: a property of it assigned or deleted, the name handed to
// Object's or Reflect's functions, or read by code that runs as the
// module loads (outside every function body and block).
func (m *tsModule) mutated(name string, decl int) bool {
	for k, t := range m.toks {
		if k == decl || t.text != name || !js.IsIdentifier(t.tt) || m.member(k) {
			continue
		}
		if m.is(k+1, ":") && (m.is(k-1, "{") || m.is(k-1, ",")) {
			continue // a key of an object
		}
		if m.is(k-1, "delete") || m.is(k-1, "++") || m.is(k-1, "--") {
			return true
		}
		j := k + 1
		for {
			if (m.is(j, ".") || m.is(j, "?.")) && m.word(j+1) {
				j += 2
			} else if m.is(j, "[") {
				j = m.after(j)
			} else {
				break
			}
		}
		if tt := m.tok(j).tt; tt == js.IncrToken || tt == js.DecrToken || js.IsOperator(tt) && strings.HasSuffix(m.tok(j).text, "=") &&
			tt != js.EqEqToken && tt != js.EqEqEqToken && tt != js.NotEqToken && tt != js.NotEqEqToken && tt != js.LtEqToken && tt != js.GtEqToken {
			return true
		}
		if m.is(k-1, "(") && m.word(k-2) && m.is(k-3, ".") && (m.is(k-4, "Object") || m.is(k-4, "Reflect")) {
			return true
		}
		if t.brace == 0 && !m.parameter(k) {
			return true
		}
	}
	return false
}

// parameter reports whether token k is a name in a function's parameter
// list (directly: not in a pattern or a default value's brackets).
func (m *tsModule) parameter(k int) bool {
	o := m.tok(k).in
	if !m.is(o, "(") {
		return false
	}
	c := m.toks[o].match
	return m.is(c+1, "=>") || m.is(c+1, "{") || m.is(c+1, ":") ||
		m.is(o-1, "function") || m.is(o-1, "*") || m.is(o-1, ">") || m.word(o-1) && (m.is(o-2, "function") || m.is(o-2, "*"))
}

// resolve is what the top-level name holds, when a single declaration
// fixes it.
func (m *tsModule) resolve(name string, depth int) tsDef {
	bs := m.bindings[name]
	if len(bs) != 1 || depth > 8 {
		return tsDef{}
	}
	b := bs[0]
	switch b.kind {
	case "function":
		if m.assigned(name) {
			return tsDef{}
		}
		d, _ := m.function(b.at)
		return d
	case "class":
		return tsDef{kind: tsClass, what: "class " + name + " (" + m.where(b.at) + ")"}
	case "const":
		d := m.value(b.at, false, true, depth+1)
		if d.kind != tsUnknown && d.kind != tsGenerator {
			if !strings.HasSuffix(d.what, ")") {
				d.what += " (" + m.where(b.at) + ")"
			}
			d.what = name + ", " + d.what
		}
		return d
	}
	return tsDef{}
}

// assigned reports whether name is assigned anywhere in the module.
func (m *tsModule) assigned(name string) bool {
	for k, t := range m.toks {
		if t.text != name || !js.IsIdentifier(t.tt) || m.member(k) {
			continue
		}
		next := m.tok(k + 1)
		if next.tt == js.IncrToken || next.tt == js.DecrToken || m.is(k-1, "++") || m.is(k-1, "--") ||
			js.IsOperator(next.tt) && strings.HasSuffix(next.text, "=") && next.tt != js.EqEqToken && next.tt != js.EqEqEqToken &&
				next.tt != js.NotEqToken && next.tt != js.NotEqEqToken && next.tt != js.LtEqToken && next.tt != js.GtEqToken {
			return true
		}
	}
	return false
}

// value is what the expression at i is, as a default export: after
// `export default` (stmt: a function or class there is a declaration),
// or as a const's initializer (decl: it may end at a comma).
func (m *tsModule) value(i int, stmt, decl bool, depth int) tsDef {
	t := m.tok(i)
	switch {
	case t.tt == js.FunctionToken || t.text == "async" && m.is(i+1, "function") && !m.tok(i+1).nl:
		d, end := m.function(i)
		if end < 0 || !stmt && !m.exprEnds(end, decl) {
			return tsDef{}
		}
		return d
	case t.tt == js.ClassToken || stmt && t.text == "abstract" && m.is(i+1, "class"):
		j := i
		for j < len(m.toks) && !m.is(j, "{") {
			j = m.after(j)
		}
		if j >= len(m.toks) || !stmt && !m.exprEnds(m.after(j), decl) {
			return tsDef{}
		}
		what := "a class"
		if k := i + 1 + btoi(t.text == "abstract"); m.word(k) && !m.is(k, "extends") && !m.is(k, "implements") {
			what = "class " + m.tok(k).text
		}
		return tsDef{kind: tsClass, what: what}
	case t.tt == js.OpenParenToken || t.text == "async" || t.tt == js.LtToken || js.IsIdentifier(t.tt) && m.is(i+1, "=>"):
		return m.arrow(i)
	}
	// A literal: not a function.
	what, j := "", -1
	switch {
	case t.tt == js.OpenBraceToken:
		what, j = "an object", m.after(i)
	case t.tt == js.OpenBracketToken:
		what, j = "an array", m.after(i)
	case t.tt == js.StringToken || t.tt == js.TemplateToken || t.tt == js.TemplateStartToken:
		what, j = "a string", m.after(i)
	case js.IsNumeric(t.tt):
		what, j = "a number", i+1
	case (t.tt == js.SubToken || t.tt == js.AddToken) && js.IsNumeric(m.tok(i+1).tt):
		what, j = "a number", i+2
	case t.tt == js.TrueToken || t.tt == js.FalseToken:
		what, j = "a boolean", i+1
	case t.tt == js.NullToken:
		what, j = "null", i+1
	case t.tt == js.RegExpToken:
		what, j = "a regular expression", i+1
	case js.IsIdentifier(t.tt) && m.exprEnds(i+1, decl):
		return m.resolve(t.text, depth)
	}
	if j < 0 || !m.exprEnds(j, decl) {
		return tsDef{}
	}
	return tsDef{kind: tsNotFunction, what: what}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// function reads the function at i (`function`, or `async function`):
// what it is as a component, and the index after it (-1 when baton does
// not find its body).
func (m *tsModule) function(i int) (tsDef, int) {
	async := m.is(i, "async")
	j := i + 1 + btoi(async)
	gen := m.is(j, "*")
	if gen {
		j++
	}
	what := "a function"
	if m.word(j) {
		what = "function " + m.tok(j).text
		j++
	}
	if m.is(j, "<") {
		if j = m.skipAngles(j); j < 0 {
			return tsDef{}, -1
		}
	}
	if !m.is(j, "(") {
		return tsDef{}, -1
	}
	j = m.after(j)
	if m.is(j, ":") {
		if j = m.skipType(j + 1); j < 0 {
			return tsDef{}, -1
		}
	}
	if !m.is(j, "{") {
		return tsDef{}, -1 // an overload's signature, a declare
	}
	end := m.after(j)
	what += " (" + m.where(i) + ")"
	switch {
	case gen && async:
		return tsDef{kind: tsAsyncGenerator, what: what}, end
	case gen:
		return tsDef{kind: tsGenerator}, end
	case async:
		return tsDef{kind: tsAsync, what: what}, end
	}
	d := m.body(j)
	d.what = what
	return d, end
}

// arrow reads the arrow function at i, if it is one.
func (m *tsModule) arrow(i int) tsDef {
	j := i
	async := m.is(j, "async") && !m.is(j+1, "=>")
	if async {
		if j++; m.tok(j).nl {
			return tsDef{}
		}
	}
	if m.is(j, "<") {
		if j = m.skipAngles(j); j < 0 {
			return tsDef{}
		}
	}
	switch {
	case m.is(j, "("):
		j = m.after(j)
		if m.is(j, ":") {
			if j = m.skipType(j + 1); j < 0 {
				return tsDef{}
			}
		}
	case js.IsIdentifier(m.tok(j).tt):
		j++
	default:
		return tsDef{}
	}
	if !m.is(j, "=>") {
		return tsDef{}
	}
	what := "an arrow function (" + m.where(i) + ")"
	if async {
		return tsDef{kind: tsAsync, what: "an async " + strings.TrimPrefix(what, "an ")}
	}
	if !m.is(j+1, "{") {
		return tsDef{} // what an expression body returns is not followed
	}
	d := m.body(j + 1)
	d.what = what
	return d
}

// body judges the body, at the `{` at i, of a function that is neither a
// generator nor async: a yield in it does not parse, and without a
// return it returns nothing.
func (m *tsModule) body(i int) tsDef {
	close := m.tok(i).match
	nested, yield, ret := false, -1, false
	for k := i + 1; k < close; k++ {
		t := m.toks[k]
		switch {
		case t.tt == js.FunctionToken:
			nested = true
		case t.tt == js.MulToken && !m.is(k-1, "yield") && (m.word(k+1) || m.is(k+1, "[") || m.tok(k+1).tt == js.StringToken || m.tok(k+1).tt == js.PrivateIdentifierToken):
			nested = true // perhaps a generator method
		case t.tt == js.YieldToken && yield < 0 && !m.member(k) && !m.is(k+1, ":") && !m.is(k+1, "(") &&
			!((m.is(k-1, "{") || m.is(k-1, ",")) && (m.is(k+1, ",") || m.is(k+1, "}"))):
			yield = k // not a property's name
		case t.tt == js.ReturnToken:
			ret = true
		}
	}
	switch {
	case yield >= 0 && !nested:
		return tsDef{kind: tsYield, at: m.toks[yield].off}
	case !ret:
		// A yield in it, if any, is in a generator nested in it, or the
		// module does not load: refused either way.
		return tsDef{kind: tsReturnsNothing}
	}
	return tsDef{}
}

// maxLiteralDepth bounds the nesting of a literal baton reads.
const maxLiteralDepth = 64

// literal reads the JSON-like literal at i (objects, arrays, strings,
// numbers, true, false, null) as a YAML node, and the index after it;
// false for anything else.
func (m *tsModule) literal(i, depth int) (*yaml.Node, int, bool) {
	if depth > maxLiteralDepth {
		return nil, 0, false
	}
	t := m.tok(i)
	l, c := m.pos(t.off)
	n := &yaml.Node{Kind: yaml.ScalarNode, Line: l, Column: c}
	switch {
	case t.tt == js.OpenBraceToken:
		n.Kind, n.Tag = yaml.MappingNode, "!!map"
		seen := map[string]bool{}
		j := i + 1
		for j < t.match {
			kt := m.tok(j)
			var key string
			switch {
			case js.IsIdentifierName(kt.tt):
				key = kt.text
			case kt.tt == js.StringToken:
				s, ok := jsUnquote(kt.text)
				if !ok {
					return nil, 0, false
				}
				key = s
			case kt.tt == js.DecimalToken || kt.tt == js.IntegerToken:
				if kt.text != "0" && (strings.HasPrefix(kt.text, "0") || strings.ContainsAny(kt.text, "._eE")) {
					return nil, 0, false
				}
				key = kt.text
			default:
				return nil, 0, false
			}
			if key == "__proto__" || seen[key] || !m.is(j+1, ":") {
				return nil, 0, false
			}
			seen[key] = true
			v, next, ok := m.literal(j+2, depth+1)
			if !ok {
				return nil, 0, false
			}
			kl, kc := m.pos(kt.off)
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: kl, Column: kc}, v)
			if j = next; m.is(j, ",") {
				j++
			} else if j != t.match {
				return nil, 0, false
			}
		}
		return n, t.match + 1, true
	case t.tt == js.OpenBracketToken:
		n.Kind, n.Tag = yaml.SequenceNode, "!!seq"
		j := i + 1
		for j < t.match {
			v, next, ok := m.literal(j, depth+1)
			if !ok {
				return nil, 0, false
			}
			n.Content = append(n.Content, v)
			if j = next; m.is(j, ",") {
				j++
			} else if j != t.match {
				return nil, 0, false
			}
		}
		return n, t.match + 1, true
	case t.tt == js.StringToken:
		s, ok := jsUnquote(t.text)
		if !ok {
			return nil, 0, false
		}
		n.Tag, n.Value = "!!str", s
	case t.tt == js.TemplateToken:
		s := t.text[1 : len(t.text)-1]
		if strings.ContainsAny(s, "\\\r") {
			return nil, 0, false
		}
		n.Tag, n.Value = "!!str", s
	case t.tt == js.TrueToken || t.tt == js.FalseToken:
		n.Tag, n.Value = "!!bool", t.text
	case t.tt == js.NullToken:
		n.Tag = "!!null" // no value: not the type name "null"
	case js.IsNumeric(t.tt) || t.tt == js.SubToken && js.IsNumeric(m.tok(i+1).tt):
		text, neg := t.text, false
		if t.tt == js.SubToken {
			text, neg = m.tok(i+1).text, true
			i++
		}
		v, ok := jsNumber(text)
		if !ok {
			return nil, 0, false
		}
		if neg {
			v = -v
		}
		if v == math.Trunc(v) && math.Abs(v) < 1e21 {
			n.Tag, n.Value = "!!int", strconv.FormatFloat(v, 'f', -1, 64)
		} else {
			n.Tag, n.Value = "!!float", strconv.FormatFloat(v, 'g', -1, 64)
		}
	default:
		return nil, 0, false
	}
	return n, i + 1, true
}

// jsNumber is the value of a JavaScript numeric literal; false for a
// BigInt, a legacy octal, or one that is not finite.
func jsNumber(text string) (float64, bool) {
	text = strings.ReplaceAll(text, "_", "")
	if strings.HasSuffix(text, "n") {
		return 0, false
	}
	if len(text) > 1 && text[0] == '0' {
		base := 0
		switch text[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		case '.', 'e', 'E':
		default:
			return 0, false // a legacy octal, or 08
		}
		if base != 0 {
			u, err := strconv.ParseUint(text[2:], base, 64)
			if err != nil {
				return 0, false
			}
			return float64(u), true
		}
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// jsUnquote is the value of a JavaScript string literal, quotes included;
// false for an escape strict mode refuses or one baton does not decode.
func jsUnquote(lit string) (string, bool) {
	if len(lit) < 2 {
		return "", false
	}
	s := lit[1 : len(lit)-1]
	if !strings.ContainsRune(s, '\\') {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i++; i >= len(s) {
			return "", false
		}
		switch c = s[i]; c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			if i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
				return "", false
			}
			b.WriteByte(0)
		case '1', '2', '3', '4', '5', '6', '7', '8', '9':
			return "", false
		case 'x':
			if i+2 >= len(s) {
				return "", false
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", false
			}
			b.WriteRune(rune(v))
			i += 2
		case 'u':
			var hex string
			if i+1 < len(s) && s[i+1] == '{' {
				end := strings.IndexByte(s[i:], '}')
				if end < 0 {
					return "", false
				}
				hex, i = s[i+2:i+end], i+end
			} else if i+4 < len(s) {
				hex, i = s[i+1:i+5], i+4
			} else {
				return "", false
			}
			v, err := strconv.ParseUint(hex, 16, 32)
			if err != nil || v > utf8.MaxRune || v >= 0xD800 && v < 0xE000 {
				return "", false // a surrogate: not a character on its own
			}
			b.WriteRune(rune(v))
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case '\n':
		default:
			if c >= utf8.RuneSelf {
				return "", false // a line separator, a character escaped for nothing
			}
			b.WriteByte(c) // the character itself
		}
	}
	return b.String(), true
}
