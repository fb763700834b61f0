package workflow

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestGlobCompilesAsTheRuntime holds globCompiles to the verdicts of the
// runtime's own glob translation and V8 (testdata/globs.json, recorded
// under Node): a pattern baton judges compiles exactly when the runtime
// compiles it.
func TestGlobCompilesAsTheRuntime(t *testing.T) {
	data, err := os.ReadFile("testdata/globs.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Globs []struct {
			Pattern string  `json:"pattern"`
			Include string  `json:"include"`
			Prune   *string `json:"prune"`
		} `json:"globs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Globs) < 1000 {
		t.Fatalf("only %d patterns", len(doc.Globs))
	}
	for _, g := range doc.Globs {
		ok, known := globCompiles(g.Pattern)
		if !known {
			t.Errorf("%q: not judged", g.Pattern)
			continue
		}
		if ok != (g.Include == "") {
			t.Errorf("%q: baton says compiles=%v, V8: %q", g.Pattern, ok, g.Include)
		}
		if g.Prune != nil {
			prefix := strings.TrimSuffix(g.Pattern, "/**")
			ok, _ := globCompiles(prefix)
			if ok != (*g.Prune == "") {
				t.Errorf("%q, its prune prefix %q: baton says compiles=%v, V8: %q", g.Pattern, prefix, ok, *g.Prune)
			}
		}
	}
}
