package handoff

import (
	"encoding/json"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/handoff/session"
)

// jsonKind is the type of a JSON value, as JavaScript's typeof and
// Array.isArray tell them.
type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

var jsonKindNames = [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}

func (k jsonKind) String() string { return jsonKindNames[k] }

// jsonValue is a JSON value as JavaScript's JSON.parse gives it, with the
// span of its text: the task-memory rules check what clio-coder checks of
// the parsed value, and point at where it is written.
type jsonValue struct {
	kind jsonKind
	span markdown.Span
	num  float64 // jsonNumber: as JavaScript reads it (±Inf past the range)
	// jsonString: the string (a lone surrogate as U+FFFD), its length as
	// JavaScript counts it (UTF-16 code units), and whether trim() leaves
	// nothing of it.
	str   string
	units int
	blank bool
	elems []*jsonValue   // jsonArray
	mems  []jsonMember   // jsonObject, in the order written, repeated keys included
	keys  map[string]int // jsonObject: each key's last member, which JSON.parse keeps
}

type jsonMember struct {
	key     string
	keySpan markdown.Span
	val     *jsonValue
}

// get is the value JSON.parse gives the key (the last one written), or nil.
func (v *jsonValue) get(key string) *jsonValue {
	if i, ok := v.keys[key]; ok {
		return v.mems[i].val
	}
	return nil
}

// parseJSON parses text, the JSON written at offset base of the document.
// JSON.parse accepts what encoding/json's scanner accepts (RFC 8259; text
// that is not UTF-8 aside, which JavaScript never sees), so the scanner
// decides validity and says where it fails; the spans and JavaScript's view
// of strings and numbers are read after.
func parseJSON(text string, base int) (*jsonValue, *json.SyntaxError) {
	if err := json.Unmarshal([]byte(text), new(json.RawMessage)); err != nil {
		if se, ok := err.(*json.SyntaxError); ok {
			return nil, se
		}
		return nil, &json.SyntaxError{Offset: 0}
	}
	p := jsonParser{s: text, base: base}
	p.space()
	return p.value(), nil
}

// jsonParser reads text the scanner found valid, so it does not check
// the grammar again.
type jsonParser struct {
	s    string
	i    int
	base int
}

func (p *jsonParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *jsonParser) span(start int) markdown.Span {
	return markdown.Span{Start: p.base + start, End: p.base + p.i}
}

func (p *jsonParser) value() *jsonValue {
	start := p.i
	v := &jsonValue{}
	switch c := p.s[p.i]; {
	case c == '{':
		v.kind, v.keys = jsonObject, map[string]int{}
		p.i++
		p.space()
		for p.s[p.i] != '}' {
			ks := p.i
			key := p.str()
			keySpan := p.span(ks)
			p.space()
			p.i++ // ':'
			p.space()
			v.keys[key.str] = len(v.mems)
			v.mems = append(v.mems, jsonMember{key: key.str, keySpan: keySpan, val: p.value()})
			p.space()
			if p.s[p.i] == ',' {
				p.i++
				p.space()
			}
		}
		p.i++
	case c == '[':
		v.kind = jsonArray
		p.i++
		p.space()
		for p.s[p.i] != ']' {
			v.elems = append(v.elems, p.value())
			p.space()
			if p.s[p.i] == ',' {
				p.i++
				p.space()
			}
		}
		p.i++
	case c == '"':
		v = p.str()
	case c == 't':
		v.kind, p.i = jsonBool, p.i+4
	case c == 'f':
		v.kind, p.i = jsonBool, p.i+5
	case c == 'n':
		v.kind, p.i = jsonNull, p.i+4
	default:
		v.kind = jsonNumber
		for p.i < len(p.s) && isNumberByte(p.s[p.i]) {
			p.i++
		}
		// Past float64's range ParseFloat gives ±Inf, as JavaScript does.
		v.num, _ = strconv.ParseFloat(p.s[start:p.i], 64)
	}
	v.span = p.span(start)
	return v
}

func isNumberByte(c byte) bool {
	return '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// str reads a string at p.i, its opening quote.
func (p *jsonParser) str() *jsonValue {
	start := p.i
	p.i++
	var b []byte
	units, blank := 0, true
	add := func(r rune) {
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		blank = blank && session.IsJSSpace(r)
		b = utf8.AppendRune(b, r)
	}
	for p.s[p.i] != '"' {
		c := p.s[p.i]
		if c != '\\' {
			r, n := utf8.DecodeRuneInString(p.s[p.i:])
			add(r)
			p.i += n
			continue
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case 'b':
			add('\b')
		case 'f':
			add('\f')
		case 'n':
			add('\n')
		case 'r':
			add('\r')
		case 't':
			add('\t')
		case 'u':
			r := hex4(p.s[p.i : p.i+4])
			p.i += 4
			if utf16.IsSurrogate(r) && r < 0xDC00 && p.i+6 <= len(p.s) && p.s[p.i] == '\\' && p.s[p.i+1] == 'u' {
				if lo := hex4(p.s[p.i+2 : p.i+6]); 0xDC00 <= lo && lo < 0xE000 {
					p.i += 6
					add(utf16.DecodeRune(r, lo))
					continue
				}
			}
			if utf16.IsSurrogate(r) {
				// JavaScript keeps a lone surrogate: one code unit, not
				// white space.
				units++
				blank = false
				b = utf8.AppendRune(b, utf8.RuneError)
				continue
			}
			add(r)
		default: // '"', '\\', '/'
			add(rune(e))
		}
	}
	p.i++
	return &jsonValue{kind: jsonString, span: p.span(start), str: string(b), units: units, blank: blank}
}

func hex4(s string) rune {
	n, _ := strconv.ParseUint(s, 16, 32)
	return rune(n)
}
