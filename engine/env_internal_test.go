package engine

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/handoff"
)

// TestAnalysisFitsItsMap: an environment with every entry set still fits
// the room Analysis makes for it, so that the map is never grown.
func TestAnalysisFitsItsMap(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, fstest.MapFS{
		".git/HEAD":          {Data: []byte("ref: refs/heads/main\n")},
		".baton.yaml":        {Data: []byte("handoff:\n  state-dir: state\nworkflow:\n  component-dirs: [components]\n  registered: [Probe]\n  mode: test\n")},
		".specrew/README.md": {Data: []byte("specrew\n")},
		"docs/w.md":          {Data: []byte("<Probe />\n")},
	}); err != nil {
		t.Fatal(err)
	}
	e := New(Sources{Registry: Registry(), Ledger: func(string) handoff.Resolver {
		return func(string) handoff.Lookup { return handoff.Lookup{} }
	}})
	env, err := e.Env(Request{Path: filepath.Join(dir, "docs", "w.md"), Boundary: "plan"})
	if err != nil {
		t.Fatal(err)
	}
	env.Overrides = map[string]stopintent.Tri{"review": stopintent.True}
	m := env.Analysis()
	if len(m) > envEntries {
		t.Errorf("Analysis made %d entries, more than the %d it makes room for", len(m), envEntries)
	}
	if len(m) < 15 {
		t.Errorf("Analysis made %d entries: the environment was meant to set nearly all of them (%v)", len(m), m)
	}
}
