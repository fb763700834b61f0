package workflow

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
)

// A <Let select> is parsed by unist-util-select 5.1.0 before it is matched
// (packages/core/src/expand.ts, expandLet, cssSelect), with
// css-selector-parser 3.3.0's createParser({syntax: "selectors-4"}), and a
// selector it cannot read throws out of the <Let>. cssSelectorError is that
// parser's verdict: its grammar, over UTF-16 code units as JavaScript reads
// a string, with the selectors-4 definitions it resolves (strict, no
// substitutes); held to its verdicts in testdata/selectors.json.

// cssPseudo is a pseudo-class's or pseudo-element's argument signature.
type cssPseudo struct {
	typ        string // NoArgument, String, Selector, Formula
	optional   bool
	ofSelector bool
}

var (
	cssPseudoClasses = func() map[string]cssPseudo {
		m := map[string]cssPseudo{}
		for _, n := range []string{"link", "visited", "active", "hover", "focus", "first-child", "root", "last-child",
			"first-of-type", "last-of-type", "only-child", "only-of-type", "empty", "target", "enabled", "disabled",
			"checked", "indeterminate", "any-link", "local-link", "target-within", "scope", "past", "future",
			"focus-within", "focus-visible", "read-write", "read-only", "placeholder-shown", "default", "valid",
			"invalid", "in-range", "out-of-range", "required", "optional", "blank", "user-invalid", "playing",
			"paused", "autofill", "modal", "fullscreen", "picture-in-picture", "defined", "loading", "popover-open"} {
			m[n] = cssPseudo{typ: "NoArgument", optional: true}
		}
		m["current"] = cssPseudo{typ: "Selector", optional: true}
		for _, n := range []string{"lang", "dir"} {
			m[n] = cssPseudo{typ: "String"}
		}
		for _, n := range []string{"nth-child", "nth-last-child"} {
			m[n] = cssPseudo{typ: "Formula", ofSelector: true}
		}
		for _, n := range []string{"nth-of-type", "nth-last-of-type", "nth-col", "nth-last-col"} {
			m[n] = cssPseudo{typ: "Formula"}
		}
		for _, n := range []string{"not", "is", "where", "has", "state"} {
			m[n] = cssPseudo{typ: "Selector"}
		}
		return m
	}()
	cssPseudoElements = map[string]cssPseudo{
		"first-letter": {typ: "NoArgument", optional: true}, "first-line": {typ: "NoArgument", optional: true},
		"before": {typ: "NoArgument", optional: true}, "after": {typ: "NoArgument", optional: true},
		"marker": {typ: "NoArgument", optional: true},
	}
	cssCombinators = []string{">", "+", "~", "||"}
	cssAttrOps     = []string{"=", "~=", "|=", "^=", "$=", "*="}
	cssCaseMods    = map[string]bool{"i": true, "I": true, "s": true, "S": true}
	// jsObjectMembers are the names a plain object's lookup answers through
	// its prototype (pseudoClassesDefinitions[name]): a signature that is
	// no signature, refused as one.
	jsObjectMembers = map[string]bool{"constructor": true, "__proto__": true, "toString": true, "toLocaleString": true,
		"valueOf": true, "hasOwnProperty": true, "isPrototypeOf": true, "propertyIsEnumerable": true,
		"__defineGetter__": true, "__defineSetter__": true, "__lookupGetter__": true, "__lookupSetter__": true}
)

// Where the parser says a pseudo-class or pseudo-element selectors-4 does
// not define is defined (its pseudoLocationIndex), for its message.
var (
	cssClassesElsewhere = map[string][]string{
		"static": {"css-position-1", "css-position-2", "css-position-3", "css-position-4"}, "relative": {"css-position-1", "css-position-2", "css-position-3", "css-position-4"},
		"absolute": {"css-position-1", "css-position-2", "css-position-3", "css-position-4"}, "fixed": {"css-position-2", "css-position-3", "css-position-4"},
		"sticky": {"css-position-3", "css-position-4"}, "initial": {"css-position-4"}, "host": {"css-scoping-1"}, "host-context": {"css-scoping-1"},
	}
	cssElementsElsewhere = map[string][]string{
		"slotted": {"css-scoping-1"}, "selection": {"css-pseudo-4"}, "target-text": {"css-pseudo-4"}, "search-text": {"css-pseudo-4"},
		"spelling-error": {"css-pseudo-4"}, "grammar-error": {"css-pseudo-4"}, "backdrop": {"css-pseudo-4"}, "file-selector-button": {"css-pseudo-4"},
		"prefix": {"css-pseudo-4"}, "postfix": {"css-pseudo-4"}, "placeholder": {"css-pseudo-4"}, "details-content": {"css-pseudo-4"},
		"highlight": {"css-pseudo-4"}, "part": {"css-shadow-parts-1"},
	}
)

func cssDefinedIn(where []string) string {
	if len(where) == 0 {
		return ""
	}
	return ". It is defined in: " + strings.Join(where, ", ")
}

type cssParser struct {
	s   []uint16
	pos int
}

// cssFail is a parse error, with the parser's message.
type cssFail struct{ msg string }

func (p *cssParser) chr() int {
	if p.pos < len(p.s) {
		return int(p.s[p.pos])
	}
	return -1
}

func (p *cssParser) is(c rune) bool { return p.chr() == int(c) }
func (p *cssParser) next()          { p.pos++ }
func (p *cssParser) eof() bool      { return p.pos >= len(p.s) }

func (p *cssParser) fail(msg string) {
	at := min(len(p.s)-1, p.pos)
	panic(cssFail{fmt.Sprintf("css-selector-parser parse error: %s Pos: %d.", msg, at)})
}

func (p *cssParser) assert(ok bool, msg string) {
	if !ok {
		p.fail(msg)
	}
}

func (p *cssParser) pass(c rune) {
	p.assert(!p.eof(), `Expected "`+string(c)+`" but end of input reached.`)
	p.assert(p.is(c), `Expected "`+string(c)+`" but "`+p.chrString()+`" found.`)
	p.next()
}

func (p *cssParser) chrString() string {
	if c := p.chr(); c >= 0 {
		return string(utf16.Decode([]uint16{uint16(c)}))
	}
	return ""
}

func cssIdentStart(c int) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_' || c == '\\' || c >= 0xa0
}

func cssIdent(c int) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c >= 0xa0
}

func cssHex(c int) bool   { return c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c >= '0' && c <= '9' }
func cssDigit(c int) bool { return c >= '0' && c <= '9' }
func cssSpace(c int) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// match reads the longest of items at the position, as the parser's
// multi-character index does.
func (p *cssParser) match(items []string) string {
	best := ""
	for _, it := range items {
		if len(it) > len(best) && p.pos+len(it) <= len(p.s) {
			ok := true
			for i := 0; i < len(it); i++ {
				if p.s[p.pos+i] != uint16(it[i]) {
					ok = false
					break
				}
			}
			if ok {
				best = it
			}
		}
	}
	p.pos += len(best)
	return best
}

func (p *cssParser) parseHex() []uint16 {
	start := p.pos
	p.next()
	for count := 1; cssHex(p.chr()) && count < 6; count++ {
		p.next()
	}
	v, _ := strconv.ParseUint(string(utf16.Decode(p.s[start:p.pos])), 16, 64)
	p.skipSingleWhitespace()
	return []uint16{uint16(v)} // String.fromCharCode
}

func (p *cssParser) parseString(quote rune) {
	p.pass(quote)
	for !p.eof() {
		switch {
		case p.is(quote):
			p.next()
			return
		case p.is('\\'):
			p.next()
			switch c := p.chr(); {
			case c == int(quote), c == '\n', c == '\f':
				p.next()
			case c == '\r':
				p.next()
				if p.is('\n') {
					p.next()
				}
			case cssHex(c):
				p.parseHex()
			default:
				p.next()
			}
		default:
			p.next()
		}
	}
}

// parseIdentifier returns the identifier and whether there was one.
func (p *cssParser) parseIdentifier() (string, bool) {
	if !cssIdentStart(p.chr()) {
		return "", false
	}
	var out []uint16
	for p.is('-') {
		out = append(out, '-')
		p.next()
	}
	if len(out) == 1 && !cssIdent(p.chr()) && !p.is('\\') {
		p.fail("Identifiers cannot consist of a single hyphen.")
	}
	if len(out) >= 2 {
		p.fail("Identifiers cannot start with two hyphens with strict mode on.")
	}
	if cssDigit(p.chr()) {
		p.fail("Identifiers cannot start with hyphens followed by digits.")
	}
	for !p.eof() {
		switch {
		case cssIdent(p.chr()):
			out = append(out, uint16(p.chr()))
			p.next()
		case p.is('\\'):
			out = p.escape(out)
		default:
			return string(utf16.Decode(out)), true
		}
	}
	return string(utf16.Decode(out)), true
}

// escape reads the escape at the backslash p is at, in an identifier or a
// pseudo-class's string, and appends what it stands for to out: a hex
// escape's code point, else the character after the backslash.
func (p *cssParser) escape(out []uint16) []uint16 {
	p.next()
	p.assert(!p.eof(), "Unexpected end of input.")
	if cssHex(p.chr()) {
		return append(out, p.parseHex()...)
	}
	out = append(out, uint16(p.chr()))
	p.next()
	return out
}

// ident is parseIdentifier's answer as JavaScript tests it: an empty
// identifier is falsy.
func (p *cssParser) ident() (string, bool) {
	s, ok := p.parseIdentifier()
	return s, ok && s != ""
}

func (p *cssParser) parsePseudoClassString() bool {
	var out []uint16
	for !p.eof() {
		if p.is(')') {
			break
		}
		if p.is('\\') {
			out = p.escape(out)
			continue
		}
		out = append(out, uint16(p.chr()))
		p.next()
	}
	return jsTrim(string(utf16.Decode(out))) != ""
}

func (p *cssParser) skipSingleWhitespace() {
	if p.is(' ') || p.is('\t') || p.is('\f') || p.is('\n') {
		p.next()
		return
	}
	if p.is('\r') {
		p.next()
	}
	if p.is('\n') {
		p.next()
	}
}

func (p *cssParser) skipWhitespace() {
	for cssSpace(p.chr()) {
		p.next()
	}
}

func (p *cssParser) parseSelector(relative bool) {
	p.skipWhitespace()
	p.parseRule(relative)
	for p.is(',') {
		p.next()
		p.skipWhitespace()
		p.parseRule(relative)
	}
}

func (p *cssParser) parseAttribute() {
	p.pass('[')
	p.skipWhitespace()
	switch {
	case p.is('|'):
		p.next()
		_, ok := p.ident()
		p.assert(ok, "Expected attribute name.")
	case p.is('*'):
		p.next()
		p.pass('|')
		_, ok := p.ident()
		p.assert(ok, "Expected attribute name.")
	default:
		_, ok := p.ident()
		p.assert(ok, "Expected attribute name.")
		if p.is('|') {
			saved := p.pos
			p.next()
			if cssIdentStart(p.chr()) {
				_, ok := p.ident()
				p.assert(ok, "Expected attribute name.")
			} else {
				p.pos = saved
			}
		}
	}
	p.skipWhitespace()
	if p.is(']') {
		p.next()
		return
	}
	p.assert(p.match(cssAttrOps) != "", "Expected a valid attribute selector operator.")
	p.skipWhitespace()
	p.assert(!p.eof(), "Unexpected end of input.")
	if p.is('"') || p.is('\'') {
		p.parseString(rune(p.chr()))
	} else {
		_, ok := p.ident()
		p.assert(ok, "Expected attribute value.")
	}
	p.skipWhitespace()
	if !p.is(']') {
		mod, ok := p.ident()
		p.assert(ok, "Expected end of attribute selector.")
		p.assert(cssCaseMods[mod], "Unknown attribute case sensitivity modifier.")
		p.skipWhitespace()
	}
	p.pass(']')
}

func (p *cssParser) parseNumber() {
	n := 0
	for cssDigit(p.chr()) {
		p.next()
		n++
	}
	p.assert(n > 0, "Formula parse error.")
}

func (p *cssParser) parseFormula() {
	if p.is('e') || p.is('o') {
		id, _ := p.parseIdentifier()
		if id == "even" || id == "odd" {
			p.skipWhitespace()
			return
		}
	}
	first := false
	if p.is('-') {
		p.next()
	}
	if p.is('-') || p.is('+') || cssDigit(p.chr()) {
		if p.is('+') {
			p.next()
		}
		p.parseNumber()
		first = true
		if !p.is('\\') && !p.is('n') {
			return
		}
	}
	_ = first
	var id []uint16
	if p.is('\\') {
		p.next()
		if cssHex(p.chr()) {
			id = p.parseHex()
		} else {
			id = p.readAndNext()
		}
	} else {
		id = p.readAndNext()
	}
	p.assert(len(id) == 1 && id[0] == 'n', `Formula parse error: expected "n".`)
	p.skipWhitespace()
	if p.is('+') || p.is('-') {
		p.next()
		p.skipWhitespace()
		p.parseNumber()
	}
}

// readAndNext is the current character, "" at the end, and the position
// past it.
func (p *cssParser) readAndNext() []uint16 {
	c := p.chr()
	p.next()
	if c < 0 {
		return nil
	}
	return []uint16{uint16(c)}
}

func (p *cssParser) parsePseudoArgument(name, kind string, sig cssPseudo) {
	if !p.is('(') {
		p.assert(sig.optional, "Argument is required for "+kind+` "`+name+`".`)
		return
	}
	p.next()
	p.skipWhitespace()
	switch sig.typ {
	case "String":
		p.assert(p.parsePseudoClassString(), fmt.Sprintf("Expected %s argument value.", kind))
	case "Selector":
		p.parseSelector(true)
	case "Formula":
		p.parseFormula()
		if sig.ofSelector {
			p.skipWhitespace()
			if p.is('o') || p.is('\\') {
				id, _ := p.parseIdentifier()
				p.assert(id == "of", "Formula of selector parse error.")
				p.skipWhitespace()
				p.parseRule(false)
			}
		}
	default:
		p.fail(fmt.Sprintf("Invalid %s signature.", kind))
	}
	p.skipWhitespace()
	p.pass(')')
}

func (p *cssParser) isTagStart() bool { return p.is('*') || cssIdentStart(p.chr()) }

func (p *cssParser) parseTagName() {
	switch {
	case p.is('*'):
		p.next()
	case cssIdentStart(p.chr()):
		_, ok := p.ident()
		p.assert(ok, "Expected tag name.")
	default:
		p.fail("Expected tag name.")
	}
}

func (p *cssParser) parseTagNameWithNamespace() {
	switch {
	case p.is('*'):
		saved := p.pos
		p.next()
		if !p.is('|') {
			p.pos = saved
			p.parseTagName()
			return
		}
		p.next()
		if !p.isTagStart() {
			p.pos = saved
			p.parseTagName()
			return
		}
		p.parseTagName()
	case p.is('|'):
		p.next()
		p.parseTagName()
	case cssIdentStart(p.chr()):
		_, ok := p.ident()
		p.assert(ok, "Expected tag name.")
		if !p.is('|') {
			return
		}
		saved := p.pos
		p.next()
		if !p.isTagStart() {
			p.pos = saved
			return
		}
		p.parseTagName()
	default:
		p.fail("Expected tag name.")
	}
}

func (p *cssParser) parseRule(relative bool) {
	if relative {
		if p.match(cssCombinators) != "" {
			p.skipWhitespace()
		}
	}
	items := 0
loop:
	for !p.eof() {
		switch {
		case p.isTagStart():
			p.assert(items == 0, "Unexpected tag/namespace start.")
			p.parseTagNameWithNamespace()
		case p.is('|'):
			saved := p.pos
			p.next()
			if !p.isTagStart() {
				p.pos = saved
				break loop
			}
			p.assert(items == 0, "Unexpected tag/namespace start.")
			p.pos = saved
			p.parseTagNameWithNamespace()
		case p.is('.'):
			p.next()
			_, ok := p.ident()
			p.assert(ok, "Expected class name.")
		case p.is('#'):
			p.next()
			_, ok := p.ident()
			p.assert(ok, "Expected ID name.")
		case p.is('&'):
			p.fail("Nesting selector is not enabled.")
		case p.is('['):
			p.parseAttribute()
		case p.is(':'):
			double := false
			p.next()
			if p.is(':') {
				double = true
				p.next()
			}
			name, ok := p.ident()
			if !double {
				p.assert(ok, "Expected pseudo-class name.")
			} else {
				p.assert(ok, "Expected pseudo-element name.")
			}
			el, isElement := cssPseudoElements[name]
			if double && !isElement {
				p.fail(`Unknown pseudo-element "` + name + `"` + cssDefinedIn(cssElementsElsewhere[name]) + ".")
			}
			if isElement {
				p.parsePseudoArgument(name, "pseudo-element", el)
			} else {
				sig, known := cssPseudoClasses[name]
				if jsObjectMembers[name] {
					// The lookup answers with no signature: no argument is
					// optional, and none has a type.
					p.parsePseudoArgument(name, "pseudo-class", cssPseudo{typ: "none"})
				}
				if !known {
					p.fail(`Unknown pseudo-class: "` + name + `"` + cssDefinedIn(cssClassesElsewhere[name]) + ".")
				}
				p.parsePseudoArgument(name, "pseudo-class", sig)
			}
		default:
			break loop
		}
		items++
	}
	if items == 0 {
		if p.eof() {
			p.fail("Expected rule but end of input reached.")
		}
		p.fail(`Expected rule but "` + p.chrString() + `" found.`)
	}
	p.skipWhitespace()
	if !p.eof() && !p.is(',') && !p.is(')') {
		p.match(cssCombinators)
		p.skipWhitespace()
		p.parseRule(false)
	}
}

// cssSelectorError is css-selector-parser's error for a selector, "" when
// it parses it.
func cssSelectorError(sel string) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(cssFail)
			if !ok {
				panic(r)
			}
			msg = f.msg
		}
	}()
	p := &cssParser{s: utf16.Encode([]rune(sel))}
	p.parseSelector(false)
	return ""
}
