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
