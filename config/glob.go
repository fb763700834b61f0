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
	return doublestar.Match(segmentClasses(pattern), name)
}

// segmentClasses keeps negated classes within a segment: doublestar's
// `[^x]` matches a `/` (so `a[^x]b` would match `a/b`), and `[^x/]` does
// not. pattern is valid.
func segmentClasses(pattern string) string {
	if !strings.Contains(pattern, "[") {
		return pattern
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
			b.WriteString(pattern[i:end])
			b.WriteString("/]")
			i = end
			continue
		case c == '[':
			// A class that is not negated is copied whole: a "[^" inside
			// it ("[[^]") is two of its members, not a class of its own.
			end := classEnd(pattern, i+1)
			if end < 0 {
				break
			}
			b.WriteString(pattern[i : end+1])
			i = end
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
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
