// Package enginetest holds what the tests of several entry points share to
// prove they analyse in one environment.
package enginetest

import (
	_ "embed"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

//go:embed one-engine.txtar
var oneEngine []byte

// Workspace lays out, in a temporary folder, a workspace whose
// configuration and specrew state change what baton reports on its stop
// packet, and returns the folder and the packet's text (at stop.md there).
func Workspace(t testing.TB) (dir, stop string) {
	t.Helper()
	dir = t.TempDir()
	for _, f := range txtar.Parse(oneEngine).Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		if f.Name == "stop.md" {
			stop = string(f.Data)
		}
	}
	return dir, stop
}

// RuleFixtures lists the txtar fixtures of every kind's rules (analysistest's
// form), for a test in a package one folder below the module root.
func RuleFixtures(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, g := range []string{"../analysis/packet/testdata/*.txtar", "../analysis/packet/testdata/*/*.txtar", "../analysis/workflow/testdata/rules/*.txtar", "../handoff/testdata/*.txtar", "../analysis/stopintent/testdata/*.txtar"} {
		m, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 50 {
		t.Fatalf("found %d rule fixtures; the globs are stale", len(files))
	}
	return files
}
