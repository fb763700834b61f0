// Package ignore matches paths against gitignore patterns: the `ignore:`
// list of .baton.yaml and the .gitignore files a folder walk passes.
//
// The patterns mean what they mean to git (gitignore(5)): `#` starts a
// comment, `!` re-includes, a trailing `/` matches folders only, a pattern
// with a `/` other than a trailing one is anchored to the folder it is
// written in, and one without matches a name at any depth below it; `*`,
// `?` and `[…]` stay within one name and `**` spans folders. A path below an
// ignored folder is ignored, and no later `!` brings it back (git does not
// look into an ignored folder). Braces are literal, as in git, and a `]`
// first in a class is one of its members. The glob matching itself is
// doublestar's; this package adds the gitignore rules around it.
//
// A malformed pattern (`foo[`, an unclosed class) matches nothing in git,
// which reads the rest of the file as if the line were not there. A
// .gitignore is read the same way; the `ignore:` list of .baton.yaml, which
// is baton's own, reports the line as an error.
package ignore

import (
	"bufio"
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Pattern is one gitignore pattern.
type Pattern struct {
	Source string // where it is written, for messages: ".baton.yaml:4", "docs/.gitignore:2"
	Text   string // as written

	base     string // the slash path of the folder it is relative to, "" for the matcher's root
	glob     string // what doublestar matches against the path below base
	negate   bool
	dirOnly  bool
	anchored bool
}

// Parse reads one gitignore pattern written in the folder base (a slash
// path relative to the matcher's root, "" for the root itself). ok is false
// for a blank line or a comment. err is set for a pattern no path can match
// (a malformed `[…]` class).
func Parse(base, source, line string) (p Pattern, ok bool, err error) {
	line = strings.TrimSuffix(line, "\r")
	line = trimTrailingSpaces(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return Pattern{}, false, nil
	}
	p = Pattern{Source: source, Text: line, base: strings.Trim(base, "/")}
	switch {
	case strings.HasPrefix(line, "!"):
		p.negate = true
		line = line[1:]
	case strings.HasPrefix(line, `\!`), strings.HasPrefix(line, `\#`):
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") && !strings.HasSuffix(line, `\/`) {
		p.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if line == "" {
		return Pattern{}, false, nil
	}
	if strings.Contains(line, "/") {
		p.anchored = true
		line = strings.TrimPrefix(line, "/")
	}
	// Braces are literal in gitignore; doublestar would expand them.
	line = strings.NewReplacer("{", `\{`, "}", `\}`).Replace(line)
	line = escapeFirstCloser(line)
	// "a/**" is everything inside a, not a itself.
	if strings.HasSuffix(line, "/**") {
		line += "/*"
	}
	p.glob = line
	if !doublestar.ValidatePattern(p.glob) {
		return Pattern{}, false, fmt.Errorf("pattern %q is malformed: check its [ ] classes and \\ escapes", p.Text)
	}
	return p, true, nil
}

// escapeFirstCloser escapes a `]` that comes first in a class (after `[`,
// `[!` or `[^`): git reads it as a member of the class, doublestar as the
// end of an empty one.
func escapeFirstCloser(s string) string {
	if !strings.Contains(s, "[]") && !strings.Contains(s, "[!]") && !strings.Contains(s, "[^]") {
		return s
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		b.WriteByte(c)
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == '[' && !inClass:
			inClass = true
			if i+1 < len(s) && (s[i+1] == '!' || s[i+1] == '^') {
				i++
				b.WriteByte(s[i])
			}
			if i+1 < len(s) && s[i+1] == ']' {
				i++
				b.WriteString(`\]`)
			}
		case c == ']' && inClass:
			inClass = false
		}
	}
	return b.String()
}

// trimTrailingSpaces drops trailing spaces, less one escaped with `\`.
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") {
		if strings.HasSuffix(s, `\ `) {
			return s[:len(s)-2] + " "
		}
		s = s[:len(s)-1]
	}
	return s
}

// matches reports whether the pattern matches the path itself (a slash
// path relative to the matcher's root), leaving its folders aside.
func (p *Pattern) matches(rel string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	below := rel
	if p.base != "" {
		if !strings.HasPrefix(rel, p.base+"/") {
			return false
		}
		below = rel[len(p.base)+1:]
	}
	if !p.anchored {
		below = path.Base(below)
	}
	ok, _ := doublestar.Match(p.glob, below)
	return ok
}

// Matcher is an ordered list of patterns: the last one matching a path
// decides.
type Matcher struct {
	patterns []Pattern
}

// Add appends patterns; they win over those added before.
func (m *Matcher) Add(ps ...Pattern) { m.patterns = append(m.patterns, ps...) }

// Len is the number of patterns.
func (m *Matcher) Len() int {
	if m == nil {
		return 0
	}
	return len(m.patterns)
}

// ReadFile parses a .gitignore file's data written in folder base. A
// malformed pattern is left out without a word, as git leaves it out: it
// matches nothing there, so it neither ignores a path nor re-includes one,
// and git says nothing of it either.
func ReadFile(base, name string, data []byte) []Pattern {
	var ps []Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		if p, ok, err := Parse(base, fmt.Sprintf("%s:%d", name, n), sc.Text()); ok && err == nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// Match returns the pattern that decides rel (a slash path relative to the
// matcher's root) when that pattern ignores it, or nil. It looks at the
// path alone: a walk that skips ignored folders needs nothing more.
func (m *Matcher) Match(rel string, isDir bool) *Pattern {
	if m == nil {
		return nil
	}
	for i := len(m.patterns) - 1; i >= 0; i-- {
		p := &m.patterns[i]
		if p.matches(rel, isDir) {
			if p.negate {
				return nil
			}
			return p
		}
	}
	return nil
}

// Ignored returns the pattern that ignores rel or a folder above it, or nil.
func (m *Matcher) Ignored(rel string, isDir bool) *Pattern {
	if m.Len() == 0 || rel == "" || rel == "." {
		return nil
	}
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		if p := m.Match(strings.Join(parts[:i], "/"), true); p != nil {
			return p
		}
	}
	return m.Match(rel, isDir)
}
