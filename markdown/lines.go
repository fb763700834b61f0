package markdown

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Encoding is the unit in which a Position's Character counts: the LSP
// position encodings.
type Encoding int

const (
	UTF16 Encoding = iota // the LSP default
	UTF8
	UTF32
)

func (e Encoding) String() string {
	switch e {
	case UTF8:
		return "utf-8"
	case UTF32:
		return "utf-32"
	default:
		return "utf-16"
	}
}

// Position is a zero-based line and a character offset within that line,
// counted in the units of an Encoding.
type Position struct {
	Line, Character int
}

// LineIndex maps byte offsets to positions and back. Lines end at "\n",
// "\r\n" or "\r", as in the LSP specification.
type LineIndex struct {
	text   string
	starts []int32 // byte offset of the start of each line
}

// An index is held for every open document as long as it is open: its line
// starts are int32 (a text is at most MaxIndexedBytes), and exactly as many
// as there are lines, which halved what an editor holds per line.

// MaxIndexedBytes is the longest text a LineIndex indexes: past it (never
// for a document baton analyses, see MaxDocumentBytes) the rest of the text
// is one long last line.
const MaxIndexedBytes = math.MaxInt32

// NewLineIndex indexes text.
func NewLineIndex(text string) *LineIndex {
	n := min(len(text), MaxIndexedBytes)
	lines := 1
	if strings.IndexByte(text[:n], '\r') < 0 {
		// The common case: LF only, counted and found with the vectorised
		// search.
		lines += strings.Count(text[:n], "\n")
		starts := make([]int32, 1, lines)
		for off := 0; ; {
			i := strings.IndexByte(text[off:n], '\n')
			if i < 0 {
				return &LineIndex{text: text, starts: starts}
			}
			off += i + 1
			starts = append(starts, int32(off))
		}
	}
	starts := appendLineStarts(make([]int32, 1, 1+n/40), text, 0, n)
	return &LineIndex{text: text, starts: slices.Clip(starts)}
}

// appendLineStarts appends the starts of the lines that begin after a
// line break in b[from:to] ("\n", "\r\n" or "\r").
func appendLineStarts[T ~string | ~[]byte](starts []int32, b T, from, to int) []int32 {
	for i := from; i < to; i++ {
		switch b[i] {
		case '\n':
			starts = append(starts, int32(i+1))
		case '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				i++
			}
			starts = append(starts, int32(i+1))
		}
	}
	return starts
}

// indexes reports whether x is the index of text. An editor passes the very
// string it indexed, and comparing a string with itself stops at the shared
// pointer.
func (x *LineIndex) indexes(text string) bool { return x.text == text }

// LineCount is the number of lines; a text ending with a line break has an
// empty last line after it.
func (x *LineIndex) LineCount() int { return len(x.starts) }

// LineStart is the byte offset where line begins.
func (x *LineIndex) LineStart(line int) int { return int(x.starts[line]) }

// LineEnd is the byte offset of the end of line's content, before its line
// break.
func (x *LineIndex) LineEnd(line int) int {
	if line+1 >= len(x.starts) {
		return len(x.text)
	}
	end := int(x.starts[line+1])
	if end > 0 && x.text[end-1] == '\n' {
		end--
	}
	if end > int(x.starts[line]) && x.text[end-1] == '\r' {
		end--
	}
	return end
}

// Line returns line's content without its line break.
func (x *LineIndex) Line(line int) string { return x.text[x.starts[line]:x.LineEnd(line)] }

// LineOf is the line holding the byte at offset (clamped to the text).
func (x *LineIndex) LineOf(offset int) int {
	offset = min(max(offset, 0), len(x.text))
	return sort.Search(len(x.starts), func(i int) bool { return int(x.starts[i]) > offset }) - 1
}

// Position converts a byte offset to a position in enc. An offset inside a
// line break maps to the end of the line's content, and an offset inside a
// multi-byte character to that character's start.
func (x *LineIndex) Position(offset int, enc Encoding) Position {
	offset = min(max(offset, 0), len(x.text))
	line := x.LineOf(offset)
	start := int(x.starts[line])
	offset = min(offset, x.LineEnd(line))
	for offset > start && offset < len(x.text) && !utf8.RuneStart(x.text[offset]) {
		offset--
	}
	return Position{Line: line, Character: units(x.text[start:offset], enc)}
}

// Offset converts a position in enc to a byte offset. A position past the end
// of its line or of the text is clamped there and reported as not exact; a
// character in the middle of a UTF-16 surrogate pair maps to the start of
// that character.
func (x *LineIndex) Offset(p Position, enc Encoding) (offset int, exact bool) {
	if p.Line < 0 || p.Character < 0 {
		return 0, false
	}
	if p.Line >= len(x.starts) {
		return len(x.text), false
	}
	start, end := int(x.starts[p.Line]), x.LineEnd(p.Line)
	if enc == UTF8 {
		if start+p.Character > end {
			return end, false
		}
		off := start + p.Character
		for off > start && off < len(x.text) && !utf8.RuneStart(x.text[off]) {
			off--
		}
		return off, true
	}
	n := 0
	for i, r := range x.text[start:end] {
		if n == p.Character {
			return start + i, true
		}
		w := 1
		if enc == UTF16 && r >= 0x10000 {
			w = 2
		}
		if n+w > p.Character {
			return start + i, true
		}
		n += w
	}
	return end, n == p.Character
}

// units counts s in enc's units.
func units(s string, enc Encoding) int {
	switch enc {
	case UTF8:
		return len(s)
	case UTF32:
		return utf8.RuneCountInString(s)
	}
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
