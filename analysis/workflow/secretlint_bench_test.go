package workflow

import (
	"testing"

	"github.com/baton-md/baton/bench"
	"github.com/baton-md/baton/markdown"
)

// BenchmarkScanCredentials is the credential scan of the generated
// corpus's workflows.
func BenchmarkScanCredentials(b *testing.B) {
	texts, n := bench.Generate(300, 1).Texts(markdown.KindWorkflow)
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, t := range texts {
			scanCredentials(t)
		}
	}
}
