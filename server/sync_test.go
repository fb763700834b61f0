package server

import (
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"go.lsp.dev/protocol"
)

func rng(l1, c1, l2, c2 uint32) protocol.Range {
	return protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}}
}

func TestApplyChange(t *testing.T) {
	tests := []struct {
		name, text string
		enc        markdown.Encoding
		r          protocol.Range
		newText    string
		want       string
		exact      bool
	}{
		{"insert utf-16 after astral", "a😀b\n", markdown.UTF16, rng(0, 3, 0, 3), "X", "a😀Xb\n", true},
		{"insert utf-8 after astral", "a😀b\n", markdown.UTF8, rng(0, 5, 0, 5), "X", "a😀Xb\n", true},
		{"insert utf-32 after astral", "a😀b\n", markdown.UTF32, rng(0, 2, 0, 2), "X", "a😀Xb\n", true},
		{"replace across crlf", "ab\r\ncd\r\n", markdown.UTF16, rng(0, 1, 1, 1), "-", "a-d\r\n", true},
		{"delete last line without newline", "ab\ncd", markdown.UTF16, rng(1, 0, 1, 2), "", "ab\n", true},
		{"past line end clamps", "ab\ncd\n", markdown.UTF16, rng(0, 9, 0, 9), "!", "ab!\ncd\n", false},
		{"past document end clamps", "ab\n", markdown.UTF16, rng(7, 0, 8, 0), "z", "ab\nz", false},
		{"empty document", "", markdown.UTF16, rng(0, 0, 0, 0), "# T\n", "# T\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, exact, err := applyChange(tt.text, markdown.NewLineIndex(tt.text), tt.enc, tt.r, tt.newText)
			if err != nil || got != tt.want || exact != tt.exact {
				t.Errorf("applyChange = %q, %v, %v; want %q, %v", got, exact, err, tt.want, tt.exact)
			}
		})
	}
	if _, _, err := applyChange("abc", markdown.NewLineIndex("abc"), markdown.UTF16, rng(0, 2, 0, 1), "x"); err == nil {
		t.Error("a range ending before its start was accepted")
	}
}

// FuzzApplyChanges: any range in any encoding either fails cleanly or
// replaces exactly the bytes between two offsets, keeping the rest.
func FuzzApplyChanges(f *testing.F) {
	f.Add("## What I Just Did\r\nWork 😀.\n", uint32(1), uint32(5), uint32(1), uint32(7), "é", uint8(0))
	f.Add("a\rb\nc", uint32(0), uint32(1), uint32(2), uint32(0), "", uint8(1))
	f.Fuzz(func(t *testing.T, text string, l1, c1, l2, c2 uint32, newText string, enc uint8) {
		lines := markdown.NewLineIndex(text)
		e := markdown.Encoding(enc % 3)
		r := rng(l1%64, c1%256, l2%64, c2%256)
		start, _ := lines.Offset(position(r.Start), e)
		end, _ := lines.Offset(position(r.End), e)
		if start < 0 || end < 0 || start > len(text) || end > len(text) {
			t.Fatalf("offsets %d-%d outside %d bytes", start, end, len(text))
		}
		got, _, err := applyChange(text, lines, e, r, newText)
		if (err != nil) != (end < start) {
			t.Fatalf("err = %v for offsets %d-%d", err, start, end)
		}
		if err == nil && got != text[:start]+newText+text[end:] {
			t.Fatalf("applyChange(%q, %v) = %q", text, r, got)
		}
	})
}

// A didChange's changes, applied together in place, give what applying
// them one by one to a string gives, and the line index of that text: for
// one change and for several, on a small text and on a large one (edited
// in a recycled buffer).
func FuzzApplyChangesInOrder(f *testing.F) {
	f.Add("one\r\ntwo\rthree\n😀 four", uint32(0), uint32(1), "x\r", uint32(1), uint32(0), "\n", uint32(2), uint32(3), "", uint8(0))
	f.Add("a\nb", uint32(0), uint32(0), "\r", uint32(0), uint32(1), "\n", uint32(9), uint32(9), "end", uint8(1))
	padding := strings.Repeat("a line that makes the text large\n", textMaxPacked/32)
	f.Fuzz(func(t *testing.T, text string, l1, c1 uint32, s1 string, l2, c2 uint32, s2 string, l3, c3 uint32, s3 string, enc uint8) {
		e := markdown.Encoding(enc % 3)
		var changes []protocol.TextDocumentContentChangeEvent
		for _, c := range []struct {
			l, c uint32
			s    string
		}{{l1, c1, s1}, {l2, c2, s2}, {l3, c3, s3}} {
			r := rng(c.l%16, c.c%64, c.l%16, c.c%64+uint32(len(c.s))%3)
			changes = append(changes, &protocol.TextDocumentContentChangePartial{Range: r, Text: c.s})
		}
		for _, text := range []string{text, text + "\n" + padding} {
			for _, changes := range [][]protocol.TextDocumentContentChangeEvent{changes[:1], changes} {
				checkInOrder(t, text, e, changes)
			}
		}
	})
}

func checkInOrder(t *testing.T, text string, e markdown.Encoding, changes []protocol.TextDocumentContentChangeEvent) {
	t.Helper()
	want := text
	for _, ch := range changes {
		ch := ch.(*protocol.TextDocumentContentChangePartial)
		got, _, err := applyChange(want, markdown.NewLineIndex(want), e, ch.Range, ch.Text)
		if err != nil {
			return // a range that ends before it starts: not this test's subject
		}
		want = got
	}
	got, lines, err := applyChanges(text, markdown.NewLineIndex(text), e, changes, func(protocol.Range) {})
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("applyChanges = %q, one by one %q", got, want)
	}
	if w := markdown.NewLineIndex(want); lines.LineCount() != w.LineCount() {
		t.Fatalf("%d lines, want %d", lines.LineCount(), w.LineCount())
	} else {
		for i := range w.LineCount() {
			if lines.LineStart(i) != w.LineStart(i) {
				t.Fatalf("line %d starts at %d, want %d", i, lines.LineStart(i), w.LineStart(i))
			}
		}
	}
}

func BenchmarkDidChange10000Ranges(b *testing.B) {
	text := ""
	for len(text) < 1<<20 {
		text += "a line of a large document, edited in many places\n"
	}
	lines := markdown.NewLineIndex(text)
	var changes []protocol.TextDocumentContentChangeEvent
	for i := range 10_000 {
		l := uint32(i*7919) % uint32(lines.LineCount()-1)
		changes = append(changes, &protocol.TextDocumentContentChangePartial{Range: rng(l, 2, l, 5), Text: "xyz"})
	}
	b.Run("in-place", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := applyChanges(text, lines, markdown.UTF16, changes, func(protocol.Range) {}); err != nil {
				b.Fatal(err)
			}
		}
	})
	// What the server did before: a copy and a new index per change.
	b.Run("copy-per-change", func(b *testing.B) {
		for b.Loop() {
			t, l := text, lines
			for _, ch := range changes {
				t, _, _ = applyChange(t, l, markdown.UTF16, ch.(*protocol.TextDocumentContentChangePartial).Range, "xyz")
				l = markdown.NewLineIndex(t)
			}
		}
	})
}
