package workflow

import (
	"strings"
	"unicode/utf16"
)

// The glob dialect of `<Glob>` under `xmd`: the runtime compiles each
// include and exclude pattern (packages/runtime/apis.ts, toRegExp, and
// pruneMatcher for an exclude ending in "/**") with @effectionx/fs 0.3.0's
// globToRegExp (extended, globstar) into a JavaScript RegExp, and a pattern
// whose translation is no regular expression fails the search
// (packages/runtime/host-files.ts, globFiles: "invalid-pattern"). globRegExp
// is that translation; jsRegExpValid is V8's verdict on what it produces.

// globRegExp is globToRegExp(glob, {extended: true, globstar: true})'s
// source, as JavaScript builds it, over UTF-16 code units.
func globRegExp(glob []uint16) []uint16 {
	out := make([]uint16, 0, len(glob)+8)
	add := func(s string) { out = append(out, utf16.Encode([]rune(s))...) }
	at := func(i int) (uint16, bool) {
		if i < 0 || i >= len(glob) {
			return 0, false
		}
		return glob[i], true
	}
	inGroup := false
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		next, hasNext := at(i + 1)
		switch c {
		case '/', '$', '^', '+', '.', '(', ')', '=', '!', '|':
			out = append(out, '\\', c)
		case '?':
			out = append(out, '.')
		case '[', ']':
			out = append(out, c)
		case '{':
			inGroup = true
			out = append(out, '(')
		case '}':
			inGroup = false
			out = append(out, ')')
		case ',':
			if inGroup {
				out = append(out, '|')
			} else {
				out = append(out, '\\', ',')
			}
		case '*':
			if hasNext && next == '*' {
				i++
				prev, hasPrev := at(i - 2)
				after, hasAfter := at(i + 1)
				if (!hasPrev || prev == '/') && (!hasAfter || after == '/') {
					add("(?:[^/]*(?:/|$))*")
					if hasAfter && after == '/' {
						i++
					}
				} else {
					add(".*")
				}
			} else {
				add("[^/]*")
			}
		case '\\':
			if hasNext {
				out = append(out, '\\', next)
				i++
			}
		default:
			out = append(out, c)
		}
	}
	return append(append([]uint16{'^'}, out...), '$')
}

// globCompiles reports whether the runtime compiles pattern, and whether
// baton knows: a pattern with a backslash escapes characters whose reading
// as a regular expression (\d, \x41, \1) baton does not judge.
func globCompiles(pattern string) (ok, known bool) {
	if strings.ContainsRune(pattern, '\\') {
		return false, false
	}
	return jsRegExpValid(globRegExp(utf16.Encode([]rune(pattern)))), true
}

// jsRegExpValid is whether new RegExp(src) compiles, for the sources
// globRegExp makes of a pattern with no backslash: escapes of punctuation,
// character classes, groups, alternatives and the quantifiers * it emits
// after an atom. It reads them as V8 does without the u flag (ECMAScript
// Annex B): a ] or } alone is a literal, [] an empty class, a class runs to
// its first unescaped ], and a range's ends are compared as UTF-16 code
// units.
func jsRegExpValid(src []uint16) bool {
	depth := 0
	atom := false // what precedes may be quantified
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '\\':
			if i+1 >= len(src) {
				return false // \ at end of pattern
			}
			i++
			atom = true
		case '(':
			if i+2 < len(src) && src[i+1] == '?' {
				if src[i+2] != ':' {
					return false // no other group form is made
				}
				i += 2
			}
			depth++
			atom = false
		case ')':
			if depth == 0 {
				return false // Unmatched ')'
			}
			depth--
			atom = true
		case '|':
			atom = false
		case '^', '$':
			atom = false
		case '*', '+', '?':
			if !atom {
				return false // Nothing to repeat
			}
			if i+1 < len(src) && src[i+1] == '?' {
				i++ // lazy
			}
			atom = false
		case '[':
			end, ok := jsClassEnd(src, i+1)
			if !ok {
				return false // Unterminated character class, or a range out of order
			}
			i = end
			atom = true
		default:
			atom = true
		}
	}
	return depth == 0 // else Unterminated group
}

// jsClassEnd reads a character class from just after its "[" and returns
// the offset of its "]"; false for one never closed, or with a range whose
// start is above its end.
func jsClassEnd(src []uint16, i int) (int, bool) {
	if i < len(src) && src[i] == '^' {
		i++
	}
	// atomAt reads one class atom: its code unit, and false for an escape
	// of a class (\d) that is no single character.
	atomAt := func(j int) (unit uint16, single bool, next int, ok bool) {
		if j >= len(src) {
			return 0, false, j, false
		}
		if src[j] != '\\' {
			return src[j], true, j + 1, true
		}
		if j+1 >= len(src) {
			return 0, false, j, false
		}
		switch src[j+1] {
		case 'd', 'D', 'w', 'W', 's', 'S':
			return 0, false, j + 2, true
		}
		return src[j+1], true, j + 2, true // globRegExp escapes only punctuation
	}
	for i < len(src) {
		if src[i] == ']' {
			return i, true
		}
		lo, loSingle, next, ok := atomAt(i)
		if !ok {
			return 0, false
		}
		i = next
		if i+1 < len(src) && src[i] == '-' && src[i+1] != ']' {
			hi, hiSingle, next, ok := atomAt(i + 1)
			if !ok {
				return 0, false
			}
			if loSingle && hiSingle && lo > hi {
				return 0, false // Range out of order in character class
			}
			i = next
		}
	}
	return 0, false
}
