package governance

import (
	"testing"

	"github.com/baton-md/baton/bench"
	"github.com/baton-md/baton/markdown"
)

// BenchmarkScanFacts reads the packets of the generated corpus, as the
// validator's one pass over a message's words does.
func BenchmarkScanFacts(b *testing.B) {
	texts, n := bench.Generate(200, 1).Texts(markdown.KindPacket)
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, t := range texts {
			scanFacts(t)
		}
	}
}
