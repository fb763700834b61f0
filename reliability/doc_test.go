package reliability

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReliabilityDocNamesRealTests holds docs/reliability.md to the code:
// every test it cites as holding a promise is a test function of the
// module, so a renamed or removed test shows here rather than leaving a
// promise no test keeps.
func TestReliabilityDocNamesRealTests(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "reliability.md"))
	if err != nil {
		t.Fatal(err)
	}
	cited := map[string]bool{}
	for _, m := range regexp.MustCompile("`(Test[A-Z][A-Za-z0-9_]*)").FindAllStringSubmatch(string(doc), -1) {
		cited[m[1]] = true
	}
	if len(cited) < 20 {
		t.Fatalf("docs/reliability.md cites %d tests; the pattern no longer reads it", len(cited))
	}
	defined := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func (Test[A-Za-z0-9_]*)\(`)
	err = filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || p != ".." && strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllStringSubmatch(string(src), -1) {
			defined[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name := range cited {
		if !defined[name] {
			t.Errorf("docs/reliability.md cites %s, which no _test.go file defines", name)
		}
	}
}
