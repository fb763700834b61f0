package hostsettings

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The settings files are edited as text, not decoded and encoded again:
// an install adds baton's entries where they go and leaves every other
// byte as it was (the user's order of keys, indentation, spacing, line
// ends), and an uninstall takes out exactly what the install put in, so
// that install then uninstall gives back the file byte for byte.

// node is a JSON value in a text, with its byte span.
type node struct {
	kind       byte // '{', '[', '"', '0' (number), 't', 'f', 'n'
	start, end int  // the value's bytes: text[start:end]
	members    []member
	elems      []*node
}

// member is one key of an object.
type member struct {
	key      string
	keyStart int
	val      *node
}

// get is the value of key in an object, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != '{' {
		return nil
	}
	for _, m := range n.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// str is the value of a string node, or "" for any other node.
func (n *node) str(text []byte) string {
	if n == nil || n.kind != '"' {
		return ""
	}
	var s string
	if json.Unmarshal(text[n.start:n.end], &s) != nil {
		return ""
	}
	return s
}

// SyntaxError is a settings file that is not JSON: where, and what is wrong.
type SyntaxError struct {
	Line, Column int // 1-based; the column in bytes
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

type parser struct {
	text []byte
	pos  int
}

// parseJSON parses a whole JSON text (RFC 8259; a leading UTF-8 byte
// order mark is skipped). Duplicate keys are refused: which one a host
// reads is not defined, so an edit could land in the wrong one.
func parseJSON(text []byte) (*node, error) {
	p := &parser{text: text}
	if strings.HasPrefix(string(text), "\uFEFF") {
		p.pos = 3
	}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos < len(text) {
		return nil, p.errorf("unexpected %s after the JSON value", p.what())
	}
	return v, nil
}

func (p *parser) errorf(format string, a ...any) error {
	line, col := 1, 1
	for _, c := range p.text[:min(p.pos, len(p.text))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &SyntaxError{Line: line, Column: col, Msg: fmt.Sprintf(format, a...)}
}

func (p *parser) what() string {
	if p.pos >= len(p.text) {
		return "end of file"
	}
	return fmt.Sprintf("%q", p.text[p.pos])
}

func (p *parser) space() {
	for p.pos < len(p.text) {
		switch p.text[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

const maxDepth = 1000

func (p *parser) value(depth int) (*node, error) {
	if depth > maxDepth {
		return nil, p.errorf("nested more than %d deep", maxDepth)
	}
	if p.pos >= len(p.text) {
		return nil, p.errorf("unexpected end of file, want a value")
	}
	switch c := p.text[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		start := p.pos
		if err := p.string(); err != nil {
			return nil, err
		}
		return &node{kind: '"', start: start, end: p.pos}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if strings.HasPrefix(string(p.text[p.pos:min(p.pos+5, len(p.text))]), lit) {
				n := &node{kind: c, start: p.pos, end: p.pos + len(lit)}
				p.pos += len(lit)
				return n, nil
			}
		}
	}
	return nil, p.errorf("unexpected %s, want a value", p.what())
}

func (p *parser) object(depth int) (*node, error) {
	n := &node{kind: '{', start: p.pos}
	p.pos++
	p.space()
	if p.pos < len(p.text) && p.text[p.pos] == '}' {
		p.pos++
		n.end = p.pos
		return n, nil
	}
	seen := map[string]bool{}
	for {
		p.space()
		if p.pos >= len(p.text) || p.text[p.pos] != '"' {
			return nil, p.errorf("unexpected %s, want a key in double quotes", p.what())
		}
		keyStart := p.pos
		if err := p.string(); err != nil {
			return nil, err
		}
		var key string
		if err := json.Unmarshal(p.text[keyStart:p.pos], &key); err != nil {
			return nil, p.errorf("bad key: %v", err)
		}
		if seen[key] {
			p.pos = keyStart
			return nil, p.errorf("the key %q appears twice in one object", key)
		}
		seen[key] = true
		p.space()
		if p.pos >= len(p.text) || p.text[p.pos] != ':' {
			return nil, p.errorf("unexpected %s, want ':' after the key", p.what())
		}
		p.pos++
		p.space()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, member{key: key, keyStart: keyStart, val: v})
		p.space()
		if p.pos < len(p.text) && p.text[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.text) && p.text[p.pos] == '}' {
			p.pos++
			n.end = p.pos
			return n, nil
		}
		return nil, p.errorf("unexpected %s, want ',' or '}'", p.what())
	}
}

func (p *parser) array(depth int) (*node, error) {
	n := &node{kind: '[', start: p.pos}
	p.pos++
	p.space()
	if p.pos < len(p.text) && p.text[p.pos] == ']' {
		p.pos++
		n.end = p.pos
		return n, nil
	}
	for {
		p.space()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, v)
		p.space()
		if p.pos < len(p.text) && p.text[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.text) && p.text[p.pos] == ']' {
			p.pos++
			n.end = p.pos
			return n, nil
		}
		return nil, p.errorf("unexpected %s, want ',' or ']'", p.what())
	}
}

func (p *parser) string() error {
	start := p.pos
	p.pos++
	for p.pos < len(p.text) {
		switch c := p.text[p.pos]; {
		case c == '"':
			p.pos++
			if !json.Valid(p.text[start:p.pos]) {
				p.pos = start
				return p.errorf("bad string")
			}
			return nil
		case c == '\\':
			p.pos += 2
		case c < 0x20:
			return p.errorf("a control character in a string")
		default:
			p.pos++
		}
	}
	p.pos = start
	return p.errorf("a string that never ends")
}

func (p *parser) number() (*node, error) {
	start := p.pos
	for p.pos < len(p.text) && strings.IndexByte("+-.eE0123456789", p.text[p.pos]) >= 0 {
		p.pos++
	}
	if !json.Valid(p.text[start:p.pos]) {
		p.pos = start
		return nil, p.errorf("bad number")
	}
	return &node{kind: '0', start: start, end: p.pos}, nil
}
