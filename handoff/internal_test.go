package handoff

import (
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"
)

// The hand-written matchers and scanners stand in for the library calls
// they replaced; these tests hold them to the same answers.

var sessionLines = []string{
	"Carried from session `k3x9m2p7q1wz`.",
	"Carried from session ``.",
	"Carried from session `a`b`.",
	"Carried from session `a`",
	"Carried from session `a`. ",
	"Carried from session `a`.`.",
	"Carried from session `",
	"Carried from session `.",
	"Carried from session `é\xff\n`.",
	"Carried from session: `a`.",
	"carried from session `a`.",
	"Carried from session `a b`.",
	"",
}

func TestMatchSessionExact(t *testing.T) {
	for _, s := range sessionLines {
		if got, want := matchSessionExact(s), sessionExact.FindStringSubmatchIndex(s); !slices.Equal(got, want) {
			t.Errorf("matchSessionExact(%q) = %v, the regexp says %v", s, got, want)
		}
	}
}

func FuzzMatchSessionExact(f *testing.F) {
	for _, s := range sessionLines {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := matchSessionExact(s), sessionExact.FindStringSubmatchIndex(s); !slices.Equal(got, want) {
			t.Errorf("matchSessionExact(%q) = %v, the regexp says %v", s, got, want)
		}
	})
}

func TestTrimAndLineOf(t *testing.T) {
	for _, text := range []string{"", "\n", " \t\r\n x y \r\n\t", "a\r\nb\rc\n\nd", "- a\n- b\n  c\n\n- d\r\n"} {
		p := parser{text: text}
		lines := markdown.NewLineIndex(text)
		for i := 0; i <= len(text); i++ {
			for j := i; j <= len(text); j++ {
				tt := text[i:j]
				lead := len(tt) - len(strings.TrimLeft(tt, " \t\r\n"))
				want := markdown.Span{Start: i, End: i}
				if lead != len(tt) {
					want = markdown.Span{Start: i + lead, End: i + len(strings.TrimRight(tt, " \t\r\n"))}
				}
				if got := p.trim(markdown.Span{Start: i, End: j}); got != want {
					t.Errorf("trim(%q[%d:%d]) = %v, want %v", text, i, j, got, want)
				}
			}
			for hint := -1; hint <= lines.LineCount(); hint++ {
				if got, want := lineOf(lines, hint, i), lines.LineOf(i); got != want {
					t.Errorf("lineOf(%q, %d, %d) = %d, want %d", text, hint, i, got, want)
				}
			}
		}
	}
}
