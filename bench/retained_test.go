package bench

import (
	"runtime"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// BenchmarkRetained reports the heap one analysed ~5 KB stop packet keeps
// alive (its *analysis.Result: document, AST, models, findings), which is
// what the language server holds per open document; cmd/memory measures
// the whole process.
func BenchmarkRetained(b *testing.B) {
	reg := registry(b)
	docs := make([]string, 1000)
	for i := range docs {
		docs[i] = PacketText(uint64(i+1), 5<<10)
	}
	var perDoc float64
	for b.Loop() {
		var ms0, ms1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		keep := make([]*analysis.Result, len(docs))
		for i, d := range docs {
			keep[i] = reg.Analyze(markdown.Parse("d.md", d), nil)
		}
		runtime.GC()
		runtime.ReadMemStats(&ms1)
		perDoc = float64(ms1.HeapAlloc-ms0.HeapAlloc) / float64(len(docs))
		runtime.KeepAlive(keep)
	}
	b.ReportMetric(perDoc, "retainedB/doc")
	b.ReportMetric(0, "ns/op")
}
