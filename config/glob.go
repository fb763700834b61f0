package config

import (
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// Match reports whether name, a slash-separated relative path, matches
// pattern, with doublestar's syntax (github.com/bmatcuk/doublestar/v4, the
// library the ignore: patterns use too): within a path segment `*` matches
// any run of characters, `?` one character, `[abc]`, `[a-z]` and `[^a-z]`
// (or `[!a-z]`) one character of a class, `{md,markdown}` one of the
// alternatives, and `\` escapes the next character; none of them matches a
// `/`. A segment that is exactly `**` matches zero or more whole segments,
// so `drafts/**` matches everything below drafts and `**/*.{md,markdown}` a
// document at any depth. The pattern is anchored at both ends. The only
// error is path.ErrBadPattern, for a malformed pattern, whatever name is.
func Match(pattern, name string) (bool, error) {
	// A pattern that is not UTF-8 is malformed (path.Match says so too):
	// a byte that is no character cannot be meant as one.
	if !utf8.ValidString(pattern) || !doublestar.ValidatePattern(pattern) {
		return false, doublestar.ErrBadPattern
	}
	p, never := segmentClasses(pattern)
	if never {
		return false, nil
	}
	return doublestar.Match(p, name)
}

// segmentClasses keeps negated classes within a segment: doublestar's
// `[^x]` matches a `/` (so `a[^x]b` would match `a/b`), and `[^x/]` does
// not. It also drops a reversed range (`[0- ]`), which matches nothing to
// path.Match and to Git's wildmatch but its low end to doublestar; never
// says a class is left with nothing it can match, so neither can the
// pattern. pattern is valid.
func segmentClasses(pattern string) (out string, never bool) {
	if !strings.Contains(pattern, "[") {
		return pattern, false
	}
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\' && i+1 < len(pattern):
			b.WriteByte(c)
			i++
			b.WriteByte(pattern[i])
			continue
		case c == '[' && i+1 < len(pattern) && (pattern[i+1] == '^' || pattern[i+1] == '!'):
			end := classEnd(pattern, i+2)
			if end < 0 {
				break
			}
			body, empty := forwardRanges(pattern[i+2 : end])
			if empty {
				b.WriteString("[^/]") // all but nothing: any character of a name
			} else {
				b.WriteString(pattern[i:i+2] + body + "/]")
			}
			i = end
			continue
		case c == '[':
			// A class that is not negated is copied whole: a "[^" inside
			// it ("[[^]") is two of its members, not a class of its own.
			end := classEnd(pattern, i+1)
			if end < 0 {
				break
			}
			body, empty := forwardRanges(pattern[i+1 : end])
			if empty {
				return "", true
			}
			b.WriteString("[" + body + "]")
			i = end
			continue
		}
		b.WriteByte(c)
	}
	return b.String(), false
}

// forwardRanges is a class's members without its reversed ranges, and
// whether none is left.
func forwardRanges(body string) (string, bool) {
	if !strings.Contains(body, "-") {
		return body, body == ""
	}
	// member reads one member at i: its text and the character it stands for.
	member := func(i int) (text string, r rune, next int) {
		start := i
		if body[i] == '\\' && i+1 < len(body) {
			i++
		}
		r, n := utf8.DecodeRuneInString(body[i:])
		return body[start : i+n], r, i + n
	}
	var b strings.Builder
	for i := 0; i < len(body); {
		text, lo, next := member(i)
		if next < len(body)-1 && body[next] == '-' {
			hiText, hi, after := member(next + 1)
			if lo <= hi {
				b.WriteString(text + "-" + hiText)
			}
			i = after
			continue
		}
		b.WriteString(text)
		i = next
	}
	return b.String(), b.Len() == 0
}

// classEnd is the index of the `]` closing a class whose members start at
// i, or -1.
func classEnd(pattern string, i int) int {
	for ; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			i++
		case ']':
			return i
		}
	}
	return -1
}
