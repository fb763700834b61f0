package workflow

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/baton-md/baton/bench"
)

// BenchmarkScanCredentials is the credential scan of the generated
// corpus's workflows.
func BenchmarkScanCredentials(b *testing.B) {
	dir := b.TempDir()
	if err := bench.Generate(300, 1).Write(dir); err != nil {
		b.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "workflows", "*.md"))
	var texts []string
	n := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		texts = append(texts, string(data))
		n += len(data)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, t := range texts {
			scanCredentials(t)
		}
	}
}
