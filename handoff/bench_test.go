package handoff_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/bench"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
)

// BenchmarkAnalyze runs the handoff analyzer alone over the generated
// corpus's handoff documents, already parsed and with their sessions'
// ledgers already read, so that it measures the rules and the document
// model and nothing else (bench's KindRatio measures the whole lint).
func BenchmarkAnalyze(b *testing.B) {
	c := bench.Generate(300, 1)
	dir := b.TempDir()
	for p, t := range c.State {
		name := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(t), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	store := session.NewStore()
	ledgers := map[string]handoff.Lookup{}
	for p := range c.State {
		if filepath.Base(p) == "current.jsonl" {
			sd := filepath.Join(dir, filepath.FromSlash(filepath.Dir(p)))
			l, err := store.Ledger(sd)
			ledgers[filepath.Base(sd)] = handoff.Lookup{Ledger: l, Err: err}
		}
	}
	env := analysis.Env{handoff.EnvLedger: handoff.Resolver(func(id string) handoff.Lookup { return ledgers[id] })}
	reg, err := analysis.NewRegistry(handoff.Analyzer)
	if err != nil {
		b.Fatal(err)
	}
	var docs []*markdown.Document
	var size int64
	for _, t := range c.OfKind(markdown.KindHandoff) {
		docs = append(docs, markdown.Parse("d.md", t))
		size += int64(len(t))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			reg.AnalyzeEnv(d, nil, env)
		}
	}
}
