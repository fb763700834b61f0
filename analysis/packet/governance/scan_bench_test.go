package governance

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/baton-md/baton/bench"
)

// BenchmarkScanFacts reads the packets of the generated corpus, as the
// validator's one pass over a message's words does.
func BenchmarkScanFacts(b *testing.B) {
	dir := b.TempDir()
	if err := bench.Generate(200, 1).Write(dir); err != nil {
		b.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "packets", "*.md"))
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
			scanFacts(t)
		}
	}
}
