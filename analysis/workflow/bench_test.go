package workflow_test

import (
	"testing"
	"testing/fstest"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/workflow"
	"github.com/baton-md/baton/bench"
)

// BenchmarkAnalyzer runs the workflow analyzer alone on the generated
// corpus's workflows, already parsed, split at 4 KB: small documents show
// the per-document costs, large ones the per-byte costs.
func BenchmarkAnalyzer(b *testing.B) {
	reg, err := analysis.NewRegistry(workflow.Analyzer)
	if err != nil {
		b.Fatal(err)
	}
	env := analysis.Env{
		workflow.EnvFS:   fstest.MapFS{"components/UserCheckpoint.md": {Data: []byte(bench.UserCheckpoint)}},
		workflow.EnvPath: "w.md",
	}
	var small, large []*analysis.Document
	for _, text := range bench.Generate(1000, 1).OfKind(analysis.KindWorkflow) {
		doc := analysis.Parse("w.md", text)
		doc.Kind = analysis.KindWorkflow
		if len(text) < 4<<10 {
			small = append(small, doc)
		} else {
			large = append(large, doc)
		}
	}
	for _, c := range []struct {
		name string
		docs []*analysis.Document
	}{{"1-4KB", small}, {"4KB-1MB", large}} {
		b.Run(c.name, func(b *testing.B) {
			var size int64
			for _, d := range c.docs {
				size += int64(len(d.Text))
			}
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, d := range c.docs {
					reg.AnalyzeEnv(d, nil, env)
				}
			}
		})
	}
}
