package report

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/baton-md/baton/markdown"
)

// encodeJSON writes v indented, without HTML escaping (messages quote
// "<!-- … -->" markers), and a final newline: the whole report encoded at
// once, which the JSON written a file at a time must equal byte for byte.
func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func TestJSONPositions(t *testing.T) {
	// A finding on line 2 after a two-byte character: the column counts
	// bytes.
	doc := markdown.Parse("x.md", "a\né x\n")
	if got, want := jsonPos(doc, len("a\né ")), (jsonPosition{Line: 2, Column: 4, Offset: 5}); got != want {
		t.Errorf("jsonPos = %+v, want %+v", got, want)
	}
}
