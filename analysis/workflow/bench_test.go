package workflow_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/baton-md/baton/markdown"

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
	var small, large []*markdown.Document
	for _, text := range bench.Generate(1000, 1).OfKind(markdown.KindWorkflow) {
		doc := markdown.Parse("w.md", text)
		doc.Kind = markdown.KindWorkflow
		if len(text) < 4<<10 {
			small = append(small, doc)
		} else {
			large = append(large, doc)
		}
	}
	for _, c := range []struct {
		name string
		docs []*markdown.Document
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

// BenchmarkBundleLookup analyses a 1-4 KB workflow in a folder on disk that
// also holds 500 Markdown notes with front matter, as a language server does
// at each edit. "afresh" lists the folder and reads the start of every note
// each time (no Dirs); "live" (NewLiveDirs, the server's) reads only files
// whose size or time changed, so it Stats them.
func BenchmarkBundleLookup(b *testing.B) {
	dir := b.TempDir()
	old := time.Now().Add(-time.Hour)
	for i := range 500 {
		p := filepath.Join(dir, fmt.Sprintf("note%03d.md", i))
		text := fmt.Sprintf("---\ntitle: note %d\ntags: [a, b]\n---\n\n# Note %d\n\n%s\n", i, i, strings.Repeat("Some words. ", 120))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "components"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "components", "UserCheckpoint.md"), []byte(bench.UserCheckpoint), 0o644); err != nil {
		b.Fatal(err)
	}
	var doc *markdown.Document
	for _, text := range bench.Generate(200, 1).OfKind(markdown.KindWorkflow) {
		if len(text) >= 1<<10 && len(text) < 4<<10 {
			doc = markdown.Parse("w.md", text)
			break
		}
	}
	reg, err := analysis.NewRegistry(workflow.Analyzer)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		dirs func() *workflow.Dirs
	}{{"afresh", func() *workflow.Dirs { return nil }}, {"live", workflow.NewLiveDirs}} {
		b.Run(c.name, func(b *testing.B) {
			env := analysis.Env{workflow.EnvFS: os.DirFS(dir), workflow.EnvPath: "w.md"}
			if d := c.dirs(); d != nil {
				env[workflow.EnvDirs] = d
			}
			b.ReportAllocs()
			for b.Loop() {
				reg.AnalyzeEnv(doc, nil, env)
			}
		})
	}
}
