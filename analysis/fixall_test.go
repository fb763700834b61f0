package analysis_test

import (
	"testing"
	"unicode/utf8"

	"github.com/baton-md/baton/analysis"
)

// DiffEdit's one edit turns old into new, and never cuts a UTF-8
// sequence (the edge converts its span to UTF-16).
func FuzzDiffEdit(f *testing.F) {
	f.Add("## Why I Stopped\n", "### Why I Stopped\n")
	f.Add("é😀x", "é😁x")
	f.Add("same", "same")
	f.Add("", "new")
	f.Fuzz(func(t *testing.T, old, new string) {
		edits := analysis.DiffEdit(old, new)
		if old == new {
			if len(edits) != 0 {
				t.Fatalf("edits for equal texts: %+v", edits)
			}
			return
		}
		got, err := analysis.ApplyEdits(old, edits)
		if err != nil || got != new {
			t.Fatalf("DiffEdit(%q, %q) = %+v gives %q, %v", old, new, edits, got, err)
		}
		if utf8.ValidString(old) {
			for _, at := range []int{edits[0].Span.Start, edits[0].Span.End} {
				if at < len(old) && !utf8.RuneStart(old[at]) {
					t.Fatalf("DiffEdit(%q, %q) cuts a UTF-8 sequence at %d", old, new, at)
				}
			}
		}
	})
}
