package markdown

import (
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestParseLeavesTextAlone: the parser reads a document's own bytes, and a
// document it must see changed (front matter, a BOM, lone CRs, nesting past
// MaxLineNesting) gets a copy: the text itself is never written.
func TestParseLeavesTextAlone(t *testing.T) {
	cases := []struct {
		name   string
		text   string
		shared bool // the parser reads the text's own bytes
	}{
		{"plain", "# Title\n\n- a\n- b\n\n```go\nx\n```\n", true},
		{"empty", "", true},
		{"front matter", "---\nprops:\n  a: { type: string }\n---\n\n# W\n", false},
		{"bom", "\ufeff## What I Just Did\n\ntext\n", false},
		{"lone cr", "# a\rb\r\n- \r\n", false},
		{"crlf", "# a\r\n\r\n-\r\ntext\r\n", false},
		{"deep nesting", strings.Repeat("- ", MaxLineNesting+5) + "x\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The text must be a fresh string, not a constant in read-only
			// memory: a write to it would then fault, or go unseen.
			text := strings.Clone(c.text)
			want := strings.Clone(c.text)
			d := Parse("file:///t.md", text)
			if text != want || d.Text != want {
				t.Fatalf("the text changed:\n got %q\nwant %q", text, want)
			}
			if len(text) == 0 {
				return
			}
			shared := len(d.Source) > 0 && unsafe.SliceData(d.Source) == unsafe.StringData(text)
			if shared != c.shared {
				t.Errorf("parser reads the text's own bytes: %v, want %v", shared, c.shared)
			}
			if !c.shared && string(d.Source) == text {
				t.Errorf("the parser's copy is the text unchanged: no copy was needed")
			}
		})
	}
}

// TestCapNestingOnEveryLineEnding: the caps find the same markers whether
// the lines end in LF, CRLF or a lone CR (which the parser's copy makes an
// LF), at the start, in the middle and on the last line of the text.
func TestCapNestingOnEveryLineEnding(t *testing.T) {
	lines := []string{
		strings.Repeat("> ", MaxLineNesting+2) + "x",
		"text",
		strings.Repeat(" ", MaxNestingIndent+4) + "- deep",
		"",
		strings.Repeat("- ", MaxLineNesting+1) + "last",
	}
	cut := func(text string) (marks []int) {
		d := Parse("file:///t.md", text)
		line := 0
		for i := range len(text) {
			if d.Source[i] == 'x' && text[i] != 'x' {
				marks = append(marks, line)
			}
			if text[i] == '\n' || text[i] == '\r' && (i+1 == len(text) || text[i+1] != '\n') {
				line++
			}
		}
		return marks
	}
	want := []int{0, 2, 4}
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		for _, end := range []string{"", eol} {
			text := strings.Join(lines, eol) + end
			if got := cut(text); !slices.Equal(got, want) {
				t.Errorf("%q: markers cut on lines %v, want %v", text, got, want)
			}
		}
	}
}
