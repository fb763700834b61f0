package markdown_test

import (
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/baton-md/baton/markdown"

	"github.com/google/go-cmp/cmp"
)

var encodings = []markdown.Encoding{markdown.UTF8, markdown.UTF16, markdown.UTF32}

func TestEncodingString(t *testing.T) {
	for enc, want := range map[markdown.Encoding]string{
		markdown.UTF8:  "utf-8",
		markdown.UTF16: "utf-16",
		markdown.UTF32: "utf-32",
	} {
		if got := enc.String(); got != want {
			t.Errorf("Encoding(%d).String() = %q, want %q", int(enc), got, want)
		}
	}
}

// TestLineIndexLines checks the line table: where each line starts, where
// its content ends, and what it holds, for every kind of line break.
func TestLineIndexLines(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		starts []int
		ends   []int
		lines  []string
	}{
		{"empty", "", []int{0}, []int{0}, []string{""}},
		{"just LF", "\n", []int{0, 1}, []int{0, 1}, []string{"", ""}},
		{"just CRLF", "\r\n", []int{0, 2}, []int{0, 2}, []string{"", ""}},
		{"just CR", "\r", []int{0, 1}, []int{0, 1}, []string{"", ""}},
		{"no break", "abc", []int{0}, []int{3}, []string{"abc"}},
		{"LF, last line without break", "ab\ncd", []int{0, 3}, []int{2, 5}, []string{"ab", "cd"}},
		{"LF, trailing break", "ab\ncd\n", []int{0, 3, 6}, []int{2, 5, 6}, []string{"ab", "cd", ""}},
		{"CRLF", "ab\r\ncd\r\n", []int{0, 4, 8}, []int{2, 6, 8}, []string{"ab", "cd", ""}},
		{"lone CR", "ab\rcd\r", []int{0, 3, 6}, []int{2, 5, 6}, []string{"ab", "cd", ""}},
		{"CR then CRLF", "a\r\r\nb", []int{0, 2, 4}, []int{1, 2, 5}, []string{"a", "", "b"}},
		{"LF then CR", "\n\r", []int{0, 1, 2}, []int{0, 1, 2}, []string{"", "", ""}},
		{"mixed", "x\ny\r\nz\rw", []int{0, 2, 5, 7}, []int{1, 3, 6, 8}, []string{"x", "y", "z", "w"}},
		{"blank lines", "\n\n\r\n", []int{0, 1, 2, 4}, []int{0, 1, 2, 4}, []string{"", "", "", ""}},
		{"multi-byte", "é😀\n€", []int{0, 7}, []int{6, 10}, []string{"é😀", "€"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := markdown.NewLineIndex(tt.text)
			if got := x.LineCount(); got != len(tt.starts) {
				t.Fatalf("LineCount() = %d, want %d", got, len(tt.starts))
			}
			var starts, ends []int
			var lines []string
			for l := range x.LineCount() {
				starts = append(starts, x.LineStart(l))
				ends = append(ends, x.LineEnd(l))
				lines = append(lines, x.Line(l))
			}
			if d := cmp.Diff(tt.starts, starts); d != "" {
				t.Errorf("LineStart (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.ends, ends); d != "" {
				t.Errorf("LineEnd (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.lines, lines); d != "" {
				t.Errorf("Line (-want +got):\n%s", d)
			}
			// LineOf: every offset (and the end of the text) lies in the
			// line that starts at or before it and ends at or after it.
			for o := 0; o <= len(tt.text); o++ {
				want := 0
				for l, s := range tt.starts {
					if s <= o {
						want = l
					}
				}
				if got := x.LineOf(o); got != want {
					t.Errorf("LineOf(%d) = %d, want %d", o, got, want)
				}
			}
			if got := x.LineOf(-3); got != 0 {
				t.Errorf("LineOf(-3) = %d, want 0", got)
			}
			if got, want := x.LineOf(len(tt.text)+5), len(tt.starts)-1; got != want {
				t.Errorf("LineOf(past end) = %d, want %d", got, want)
			}
		})
	}
}

// posText holds every case Position and Offset must handle on one page:
//
//	line 0: "aé€😀b" CRLF   a=0 é=1..2 €=3..5 😀=6..9 b=10 \r=11 \n=12
//	line 1: "x" CR          x=13 \r=14
//	line 2: "😀😀" LF        😀=15..18 😀=19..22 \n=23
//	line 3: "end"           e=24 n=25 d=26, no line break, len 27
const posText = "aé€😀b\r\nx\r😀😀\nend"

// pos is a position in each encoding: {line, utf-8, utf-16, utf-32}.
type pos struct{ line, c8, c16, c32 int }

func (p pos) in(enc markdown.Encoding) markdown.Position {
	switch enc {
	case markdown.UTF8:
		return markdown.Position{Line: p.line, Character: p.c8}
	case markdown.UTF32:
		return markdown.Position{Line: p.line, Character: p.c32}
	}
	return markdown.Position{Line: p.line, Character: p.c16}
}

func TestLineIndexPosition(t *testing.T) {
	if len(posText) != 27 {
		t.Fatalf("posText is %d bytes; the table below assumes 27", len(posText))
	}
	tests := []struct {
		name   string
		text   string
		offset int
		want   pos
	}{
		{"start", posText, 0, pos{0, 0, 0, 0}},
		{"2-byte char", posText, 1, pos{0, 1, 1, 1}},
		{"inside 2-byte char", posText, 2, pos{0, 1, 1, 1}},
		{"3-byte char", posText, 3, pos{0, 3, 2, 2}},
		{"inside 3-byte char (2nd byte)", posText, 4, pos{0, 3, 2, 2}},
		{"inside 3-byte char (3rd byte)", posText, 5, pos{0, 3, 2, 2}},
		{"astral char", posText, 6, pos{0, 6, 3, 3}},
		{"inside astral char (2nd byte)", posText, 7, pos{0, 6, 3, 3}},
		{"inside astral char (4th byte)", posText, 9, pos{0, 6, 3, 3}},
		{"after astral char", posText, 10, pos{0, 10, 5, 4}},
		{"CR of CRLF is the line end", posText, 11, pos{0, 11, 6, 5}},
		{"LF of CRLF maps to the line end", posText, 12, pos{0, 11, 6, 5}},
		{"line after CRLF", posText, 13, pos{1, 0, 0, 0}},
		{"lone CR is the line end", posText, 14, pos{1, 1, 1, 1}},
		{"line after lone CR", posText, 15, pos{2, 0, 0, 0}},
		{"second astral char", posText, 19, pos{2, 4, 2, 1}},
		{"inside second astral char", posText, 21, pos{2, 4, 2, 1}},
		{"LF after astral chars", posText, 23, pos{2, 8, 4, 2}},
		{"last line without break", posText, 25, pos{3, 1, 1, 1}},
		{"end of text", posText, 27, pos{3, 3, 3, 3}},
		{"negative offset clamps to start", posText, -4, pos{0, 0, 0, 0}},
		{"offset past end clamps to end", posText, 100, pos{3, 3, 3, 3}},

		{"empty document", "", 0, pos{0, 0, 0, 0}},
		{"empty document, past end", "", 3, pos{0, 0, 0, 0}},
		{"just LF, before", "\n", 0, pos{0, 0, 0, 0}},
		{"just LF, after", "\n", 1, pos{1, 0, 0, 0}},
		{"just CRLF, inside", "\r\n", 1, pos{0, 0, 0, 0}},
		{"just CRLF, after", "\r\n", 2, pos{1, 0, 0, 0}},
		{"text ending in CR, after", "a\r", 2, pos{1, 0, 0, 0}},
		{"end of text after astral char", "😀", 4, pos{0, 4, 2, 1}},
	}
	for _, tt := range tests {
		for _, enc := range encodings {
			t.Run(fmt.Sprintf("%s/%s", tt.name, enc), func(t *testing.T) {
				x := markdown.NewLineIndex(tt.text)
				if got, want := x.Position(tt.offset, enc), tt.want.in(enc); got != want {
					t.Errorf("Position(%d, %s) = %+v, want %+v", tt.offset, enc, got, want)
				}
			})
		}
	}
}

func TestLineIndexOffset(t *testing.T) {
	type tc struct {
		name  string
		text  string
		enc   markdown.Encoding
		pos   markdown.Position
		want  int
		exact bool
	}
	P := func(line, char int) markdown.Position { return markdown.Position{Line: line, Character: char} }
	tests := []tc{
		{"utf-8 start", posText, markdown.UTF8, P(0, 0), 0, true},
		{"utf-8 3-byte char", posText, markdown.UTF8, P(0, 3), 3, true},
		{"utf-8 inside 3-byte char maps to its start", posText, markdown.UTF8, P(0, 4), 3, true},
		{"utf-8 inside astral char maps to its start", posText, markdown.UTF8, P(0, 8), 6, true},
		{"utf-8 after astral char", posText, markdown.UTF8, P(0, 10), 10, true},
		{"utf-8 line end before CRLF", posText, markdown.UTF8, P(0, 11), 11, true},
		{"utf-8 past line end (CRLF) is clamped", posText, markdown.UTF8, P(0, 12), 11, false},
		{"utf-8 far past line end is clamped", posText, markdown.UTF8, P(0, 500), 11, false},
		{"utf-8 line end before lone CR", posText, markdown.UTF8, P(1, 1), 14, true},
		{"utf-8 past line end (lone CR) is clamped", posText, markdown.UTF8, P(1, 2), 14, false},
		{"utf-8 second astral char", posText, markdown.UTF8, P(2, 4), 19, true},
		{"utf-8 past line end (LF) is clamped", posText, markdown.UTF8, P(2, 9), 23, false},
		{"utf-8 last line end", posText, markdown.UTF8, P(3, 3), 27, true},
		{"utf-8 past last line end", posText, markdown.UTF8, P(3, 4), 27, false},

		{"utf-16 2-byte char", posText, markdown.UTF16, P(0, 1), 1, true},
		{"utf-16 3-byte char", posText, markdown.UTF16, P(0, 2), 3, true},
		{"utf-16 astral char", posText, markdown.UTF16, P(0, 3), 6, true},
		{"utf-16 middle of surrogate pair maps to char start", posText, markdown.UTF16, P(0, 4), 6, true},
		{"utf-16 after astral char", posText, markdown.UTF16, P(0, 5), 10, true},
		{"utf-16 line end before CRLF", posText, markdown.UTF16, P(0, 6), 11, true},
		{"utf-16 past line end is clamped", posText, markdown.UTF16, P(0, 7), 11, false},
		{"utf-16 middle of first pair on line 2", posText, markdown.UTF16, P(2, 1), 15, true},
		{"utf-16 second astral char", posText, markdown.UTF16, P(2, 2), 19, true},
		{"utf-16 middle of second pair", posText, markdown.UTF16, P(2, 3), 19, true},
		{"utf-16 line end before LF", posText, markdown.UTF16, P(2, 4), 23, true},
		{"utf-16 past line end (LF) is clamped", posText, markdown.UTF16, P(2, 5), 23, false},

		{"utf-32 astral char", posText, markdown.UTF32, P(0, 3), 6, true},
		{"utf-32 after astral char", posText, markdown.UTF32, P(0, 4), 10, true},
		{"utf-32 line end before CRLF", posText, markdown.UTF32, P(0, 5), 11, true},
		{"utf-32 past line end is clamped", posText, markdown.UTF32, P(0, 6), 11, false},
		{"utf-32 second astral char", posText, markdown.UTF32, P(2, 1), 19, true},
		{"utf-32 line end before LF", posText, markdown.UTF32, P(2, 2), 23, true},
		{"utf-32 past line end (LF) is clamped", posText, markdown.UTF32, P(2, 3), 23, false},

		{"line past the last is clamped to the end of text", posText, markdown.UTF16, P(4, 0), 27, false},
		{"far line past the last is clamped to the end of text", posText, markdown.UTF8, P(99, 7), 27, false},
		{"negative line", posText, markdown.UTF16, P(-1, 0), 0, false},
		{"negative character", posText, markdown.UTF32, P(1, -1), 0, false},

		{"empty document, origin", "", markdown.UTF16, P(0, 0), 0, true},
		{"empty document, past line end", "", markdown.UTF16, P(0, 1), 0, false},
		{"empty document, past last line", "", markdown.UTF8, P(1, 0), 0, false},
		{"just LF, line 0", "\n", markdown.UTF16, P(0, 0), 0, true},
		{"just LF, past line 0 end", "\n", markdown.UTF8, P(0, 1), 0, false},
		{"just LF, line 1", "\n", markdown.UTF32, P(1, 0), 1, true},
		{"just LF, past line 1 end", "\n", markdown.UTF16, P(1, 1), 1, false},
		{"just LF, past last line", "\n", markdown.UTF16, P(2, 0), 1, false},
		{"just CRLF, past line 0 end", "\r\n", markdown.UTF16, P(0, 1), 0, false},
		{"lone CR line 1", "a\rb", markdown.UTF16, P(1, 1), 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := markdown.NewLineIndex(tt.text)
			got, exact := x.Offset(tt.pos, tt.enc)
			if got != tt.want || exact != tt.exact {
				t.Errorf("Offset(%+v, %s) = %d, %v; want %d, %v", tt.pos, tt.enc, got, exact, tt.want, tt.exact)
			}
		})
	}
}

// roundTripTexts mix every line break with 1- to 4-byte characters.
var roundTripTexts = []string{
	"",
	"\n",
	"\r\n",
	"\r",
	posText,
	"😀",
	"😀\r\n😀\r😀\n😀",
	"## What I Just Did\r\n\r\nAdded 😀 and é to the 𝔘nicode table.\r\n",
	"a\r\r\n\n\rb€",
	"日本語のテキスト\n\n😀é€a",
	"\u0301\u200d👩‍👩‍👧\n", // combining mark, ZWJ sequence: several code points, one grapheme
}

// lineBreakInterior reports whether offset is the LF of a CRLF: inside a
// line break, where Position rounds down to the line's end.
func lineBreakInterior(text string, o int) bool {
	return o > 0 && o < len(text) && text[o] == '\n' && text[o-1] == '\r'
}

// TestLineIndexRoundTrip: every offset that starts a character (or ends
// the text) survives Position then Offset exactly, in every encoding, and
// positions grow with offsets.
func TestLineIndexRoundTrip(t *testing.T) {
	for _, text := range roundTripTexts {
		x := markdown.NewLineIndex(text)
		for _, enc := range encodings {
			prev := markdown.Position{}
			for o := 0; o <= len(text); o++ {
				p := x.Position(o, enc)
				if p.Line < prev.Line || (p.Line == prev.Line && p.Character < prev.Character) {
					t.Errorf("%q %s: Position(%d) = %+v is before Position(%d) = %+v", text, enc, o, p, o-1, prev)
				}
				prev = p
				if o < len(text) && !utf8.RuneStart(text[o]) || lineBreakInterior(text, o) {
					continue
				}
				got, exact := x.Offset(p, enc)
				if got != o || !exact {
					t.Errorf("%q %s: Offset(Position(%d) = %+v) = %d, %v; want %d, true", text, enc, o, p, got, exact, o)
				}
			}
		}
	}
}

// TestLineIndexOffsetInsideCRLFMapsToLineEnd pins the one place the round
// trip is not exact: the LF of a CRLF has no position of its own.
func TestLineIndexOffsetInsideCRLFMapsToLineEnd(t *testing.T) {
	text := "ab\r\ncd"
	x := markdown.NewLineIndex(text)
	for _, enc := range encodings {
		p := x.Position(3, enc)
		if want := (markdown.Position{Line: 0, Character: 2}); p != want {
			t.Errorf("%s: Position(3) = %+v, want %+v", enc, p, want)
		}
		if got, _ := x.Offset(p, enc); got != 2 {
			t.Errorf("%s: Offset(%+v) = %d, want 2 (the end of the line's content)", enc, p, got)
		}
	}
}
