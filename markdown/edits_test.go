package markdown

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The editor's text and line starts are those of applying each edit to a
// string and indexing the result anew.
func checkEdits(t *testing.T, text string, edits [][3]int, repls []string) {
	t.Helper()
	e := NewTextEditor(text, nil)
	want := text
	for i, ed := range edits {
		start, end := min(ed[0], len(want)), min(ed[1], len(want))
		if end < start {
			start, end = end, start
		}
		e.Replace(start, end, repls[i])
		want = want[:start] + repls[i] + want[end:]
		if got := string(e.buf); got != want {
			t.Fatalf("edit %d: text %q, want %q", i, got, want)
		}
		if w := NewLineIndex(want).starts; !slices.Equal(e.starts, w) {
			t.Fatalf("edit %d (%d-%d %q) of %q: starts %v, want %v", i, start, end, repls[i], text, e.starts, w)
		}
	}
	got, lines := e.Result()
	if got != want || !slices.Equal(lines.starts, NewLineIndex(want).starts) {
		t.Fatal("Result differs")
	}
}

func TestTextEditorLineBreaks(t *testing.T) {
	pieces := []string{"", "a", "\n", "\r", "\r\n", "é", "ab\ncd", "\n\n", "x\r", "\ny"}
	texts := []string{"", "abc", "a\nb\nc", "a\r\nb\r\nc\r\n", "a\rb\rc", "\n\r\n\r", "one\ntwo\r\nthree\rfour\n"}
	r := rand.New(rand.NewPCG(1, 2))
	for _, text := range texts {
		for range 300 {
			var edits [][3]int
			var repls []string
			n := len(text)
			for range 1 + r.IntN(6) {
				a, b := r.IntN(n+1), r.IntN(n+1)
				s := pieces[r.IntN(len(pieces))]
				edits = append(edits, [3]int{a, b})
				repls = append(repls, s)
				n = n - max(a, b) + min(a, b) + len(s)
			}
			checkEdits(t, text, edits, repls)
		}
	}
}

func FuzzTextEditor(f *testing.F) {
	f.Add("a\r\nb\rc\n", 1, 3, "\r", 2, 2, "\n")
	f.Fuzz(func(t *testing.T, text string, a1, b1 int, s1 string, a2, b2 int, s2 string) {
		if len(text) > 1<<12 {
			return
		}
		clamp := func(v int) int { return min(max(v, 0), 1<<13) }
		checkEdits(t, text, [][3]int{{clamp(a1), clamp(b1)}, {clamp(a2), clamp(b2)}}, []string{s1, s2})
	})
}

// Many edits of a large text cost a move each, not a copy and an index.
func BenchmarkTextEditor10000Edits(b *testing.B) {
	text := strings.Repeat("a line of a large document, edited in many places\n", 1<<20/51)
	for b.Loop() {
		e := NewTextEditor(text, nil)
		for i := range 10_000 {
			off := (i * 7919) % (len(text) - 10)
			e.Replace(off, off+3, "xy\n")
		}
		e.Result()
	}
}

// TestTextEditorIn: an editor given a buffer edits in it while the edits
// fit, and ResultWith hands the edited bytes to seal rather than copying
// them; the index is that of the result.
func TestTextEditorIn(t *testing.T) {
	buf := make([]byte, 0, 64)
	e := NewTextEditorIn(buf, "one\ntwo\n", nil)
	e.Replace(4, 7, "2\r\nthree")
	var sealed []byte
	text, lines := e.ResultWith(func(b []byte) string { sealed = b; return string(b) })
	if text != "one\n2\r\nthree\n" || &sealed[0] != &buf[:1][0] {
		t.Fatalf("text %q; edited in the buffer given: %v", text, &sealed[0] == &buf[:1][0])
	}
	if !slices.Equal(lines.starts, NewLineIndex(text).starts) || !lines.indexes(text) {
		t.Fatalf("starts %v", lines.starts)
	}
	// Edits that outgrow the buffer move to a larger one.
	e = NewTextEditorIn(make([]byte, 0, 4), "ab", nil)
	e.Replace(1, 1, strings.Repeat("x", 100))
	if text, _ := e.ResultWith(func(b []byte) string { return string(b) }); text != "a"+strings.Repeat("x", 100)+"b" {
		t.Fatalf("grown text %q", text)
	}
}
