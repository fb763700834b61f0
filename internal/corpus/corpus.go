// Package corpus finds the real documents of the projects that define
// baton's formats, kept beside the repository in ../shared/corpus (CI has
// them; a clone of the project alone does not): a test that reads them
// skips, saying so, where they are absent. Where the corpus is there, a
// folder or pattern a test names that is not in it fails the test: the
// real documents must not stop being checked unnoticed.
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

// root is the corpus folder, or the test is skipped where it is absent.
func root(t testing.TB) string {
	t.Helper()
	root, ok := Root()
	if !ok {
		t.Skipf("skipped: the shared corpus is not beside this clone (looked for %s); CI has it", root)
	}
	return root
}

// Dir is the corpus folder rel (slash-separated, below the corpus). The
// test is skipped where the corpus is absent, and fails where the corpus
// is there without rel.
func Dir(t testing.TB, rel string) string {
	t.Helper()
	dir := filepath.Join(root(t), filepath.FromSlash(rel))
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("%s is not a folder of the shared corpus (%s): %v", rel, dir, err)
	}
	return dir
}

// Glob is the corpus files that match pattern (filepath.Match syntax,
// slash-separated, below the corpus), sorted. The test is skipped where
// the corpus is absent, and fails where the corpus is there and nothing
// matches.
func Glob(t testing.TB, pattern string) []string {
	t.Helper()
	full := filepath.Join(root(t), filepath.FromSlash(pattern))
	files, err := filepath.Glob(full)
	if err != nil {
		t.Fatalf("corpus.Glob(%q): %v", pattern, err)
	}
	if len(files) == 0 {
		t.Fatalf("nothing in the shared corpus matches %s (%s)", pattern, full)
	}
	return files
}
