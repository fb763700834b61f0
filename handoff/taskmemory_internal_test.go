package handoff

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzTaskMemory: on a document with one clio-task-memory block, which is
// the block clio's pattern matches if it matches any, baton reports an
// error exactly when clio refuses the snapshot, and every finding lies in
// the text.
func FuzzTaskMemory(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "taskmemory", "*.txtar"))
	for _, name := range files {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			if strings.HasSuffix(file.Name, ".md") {
				f.Add(string(file.Data))
				f.Add(strings.ReplaceAll(string(file.Data), "\n", "\r\n"))
			}
		}
	}
	reg, err := analysis.NewRegistry(Analyzer)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		doc := markdown.Parse("f.md", text)
		if doc.Kind != markdown.KindHandoff {
			return
		}
		res := reg.AnalyzeEnv(doc, nil, nil)
		errs := 0
		for _, fd := range res.Findings {
			if fd.Span.Start < 0 || fd.Span.Start > fd.Span.End || fd.Span.End > len(text) {
				t.Fatalf("%s: span %v outside the text (%d bytes)", fd.Rule, fd.Span, len(text))
			}
			if strings.HasPrefix(fd.Rule, "handoff/task-memory-") && fd.Severity == analysis.Error {
				errs++
			}
		}
		tm := readTaskMemory(doc)
		if tm == nil || len(tm.fences) != 1 || tm.read && tm.open.Start != tm.fences[0].open.Start {
			return
		}
		if refused := !AcceptsTaskMemory(text); refused != (errs > 0) {
			t.Fatalf("clio refuses: %v; baton's errors: %d (%v)", refused, errs, res.Findings)
		}
	})
}

// TestHoldsTaskMemoryLanguage is strings.Contains.
func TestHoldsTaskMemoryLanguage(t *testing.T) {
	for _, text := range []string{"", "clio-task-memory", "x clio-task-memory y", "-task-memory", "clio-task-memor", "cli-task-memory clio-task-memory",
		"lio-task-memory", "clio--task-memory", "clio-task-memoryclio-task-memory", "a-task-memory-task-memory clio"} {
		if got, want := holdsTaskMemoryLanguage(text), strings.Contains(text, TaskMemoryLanguage); got != want {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}
