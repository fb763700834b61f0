package hostsettings

import (
	"fmt"
	"strconv"
	"strings"
)

// Codex keeps what the person trusts in config.toml: baton reads the few
// keys it needs from it (never writes it), with this small reader of the
// TOML 1.0 syntax rather than a dependency.

// tomlKey is the key of a value as readTOML returns it: the table path
// and the key, each part unquoted.
func tomlKey(parts ...string) string { return strings.Join(parts, "\x00") }

// readTOML reads the strings and booleans of a TOML text by their full
// key (tomlKey of the table header's parts and the dotted key's). Numbers,
// dates, arrays and the tables of arrays ([[…]]) are skipped; a boolean is
// "true" or "false". On a syntax error it returns what it read before.
func readTOML(text string) (map[string]string, error) {
	p := &tomlParser{s: text, out: map[string]string{}}
	var table []string
	for {
		p.skipBlank(true)
		if p.i >= len(p.s) {
			return p.out, nil
		}
		var err error
		switch {
		case strings.HasPrefix(p.s[p.i:], "[["):
			p.i += 2
			var path []string
			if path, err = p.keyPath(); err == nil {
				err = p.expect("]]")
			}
			table = append(path, "[]") // an element of an array: not read
		case p.s[p.i] == '[':
			p.i++
			if table, err = p.keyPath(); err == nil {
				err = p.expect("]")
			}
		default:
			err = p.keyValue(table)
		}
		if err != nil {
			return p.out, err
		}
	}
}

type tomlParser struct {
	s   string
	i   int
	out map[string]string
}

func (p *tomlParser) errorf(format string, a ...any) error {
	line := strings.Count(p.s[:min(p.i, len(p.s))], "\n") + 1
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, a...))
}

// skipBlank skips spaces and comments, and line ends too when newlines.
func (p *tomlParser) skipBlank(newlines bool) {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ' ' || c == '\t' || (newlines && (c == '\n' || c == '\r')):
			p.i++
		case c == '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

func (p *tomlParser) expect(tok string) error {
	p.skipBlank(false)
	if !strings.HasPrefix(p.s[p.i:], tok) {
		return p.errorf("want %q", tok)
	}
	p.i += len(tok)
	return nil
}

// keyPath reads a dotted key: bare, "basic" and 'literal' parts.
func (p *tomlParser) keyPath() ([]string, error) {
	var parts []string
	for {
		p.skipBlank(false)
		if p.i >= len(p.s) {
			return nil, p.errorf("unexpected end of file in a key")
		}
		var part string
		switch p.s[p.i] {
		case '"', '\'':
			s, err := p.str()
			if err != nil {
				return nil, err
			}
			part = s
		default:
			j := p.i
			for j < len(p.s) && (isBareKey(p.s[j])) {
				j++
			}
			if j == p.i {
				return nil, p.errorf("unexpected %q in a key", p.s[p.i])
			}
			part, p.i = p.s[p.i:j], j
		}
		parts = append(parts, part)
		p.skipBlank(false)
		if p.i < len(p.s) && p.s[p.i] == '.' {
			p.i++
			continue
		}
		return parts, nil
	}
}

func isBareKey(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// str reads a one-line basic or literal string.
func (p *tomlParser) str() (string, error) {
	q := p.s[p.i]
	j := p.i + 1
	for j < len(p.s) && p.s[j] != q && p.s[j] != '\n' {
		if q == '"' && p.s[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(p.s) || p.s[j] != q {
		return "", p.errorf("unterminated string")
	}
	raw := p.s[p.i+1 : j]
	p.i = j + 1
	if q == '\'' {
		return raw, nil
	}
	s, err := strconv.Unquote(`"` + raw + `"`)
	if err != nil {
		return "", p.errorf("bad string: %v", err)
	}
	return s, nil
}

// keyValue reads key = value in table.
func (p *tomlParser) keyValue(table []string) error {
	key, err := p.keyPath()
	if err != nil {
		return err
	}
	if err := p.expect("="); err != nil {
		return err
	}
	return p.value(append(append([]string{}, table...), key...))
}

// value reads a value; path nil: read it, keep nothing.
func (p *tomlParser) value(path []string) error {
	p.skipBlank(false)
	if p.i >= len(p.s) {
		return p.errorf("want a value")
	}
	rest := p.s[p.i:]
	switch {
	case strings.HasPrefix(rest, `"""`), strings.HasPrefix(rest, "'''"):
		end := strings.Index(rest[3:], rest[:3])
		if end < 0 {
			return p.errorf("unterminated string")
		}
		p.i += 3 + end + 3
		for p.i < len(p.s) && p.s[p.i] == rest[0] { // up to two quotes end the content
			p.i++
		}
	case rest[0] == '"' || rest[0] == '\'':
		s, err := p.str()
		if err != nil {
			return err
		}
		if path != nil {
			p.out[tomlKey(path...)] = s
		}
	case rest[0] == '[':
		p.i++
		for {
			p.skipBlank(true)
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				break
			}
			if err := p.value(nil); err != nil {
				return err
			}
			p.skipBlank(true)
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
			}
		}
	case rest[0] == '{':
		p.i++
		for {
			p.skipBlank(true)
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				break
			}
			key, err := p.keyPath()
			if err != nil {
				return err
			}
			if err := p.expect("="); err != nil {
				return err
			}
			var sub []string
			if path != nil {
				sub = append(append([]string{}, path...), key...)
			}
			if err := p.value(sub); err != nil {
				return err
			}
			p.skipBlank(true)
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
			}
		}
	default:
		j := p.i
		for j < len(p.s) && !strings.ContainsRune(" \t\r\n,]}#", rune(p.s[j])) {
			j++
		}
		if j == p.i {
			return p.errorf("unexpected %q", p.s[p.i])
		}
		if tok := p.s[p.i:j]; path != nil && (tok == "true" || tok == "false") {
			p.out[tomlKey(path...)] = tok
		}
		p.i = j
	}
	return nil
}
