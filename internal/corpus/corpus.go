// Package corpus finds the real documents of the projects that define
// baton's formats, kept beside the repository in ../shared/corpus (CI has
// them; a clone of the project alone does not): a test that reads them
// skips, saying so, where they are absent.
package corpus

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Root is the corpus folder, found from this file's place in the
// repository, and whether it is there.
func Root() (string, bool) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", false
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "corpus")
	fi, err := os.Stat(dir)
	return dir, err == nil && fi.IsDir()
}

// Dir is the corpus folder rel (slash-separated, below the corpus), or the
// test is skipped with a message saying where the corpus was looked for.
func Dir(t testing.TB, rel string) string {
	t.Helper()
	root, ok := Root()
	if !ok {
		t.Skipf("skipped: the shared corpus is not beside this clone (looked for %s); CI has it", root)
	}
	dir := filepath.Join(root, filepath.FromSlash(rel))
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("skipped: %s is not in the shared corpus: %v", rel, err)
	}
	return dir
}
