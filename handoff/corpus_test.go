package handoff_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysistest"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/internal/corpus"
)

// TestRealDocumentsAreHandoffs reads the documents clio-coder's own /handoff
// wrote (the shared corpus's clio-real, beside the repository: the project
// commits no copy) and the examples as handoffs, and, with the session line
// deleted as an operator may in $EDITOR, still as handoffs whose session
// line is reported.
func TestRealDocumentsAreHandoffs(t *testing.T) {
	t.Run("examples", func(t *testing.T) {
		examples, err := filepath.Glob("../examples/*/handoff*.md")
		if err != nil || len(examples) == 0 {
			t.Fatalf("examples: %v (%d documents)", err, len(examples))
		}
		checkRealHandoffs(t, examples)
	})
	t.Run("clio-real", func(t *testing.T) {
		checkRealHandoffs(t, corpus.Glob(t, "clio-real/*/handoff.md"))
	})
}

// checkRealHandoffs reads each file as a handoff, with and without its
// session line.
func checkRealHandoffs(t *testing.T, files []string) {
	reg, err := analysis.NewRegistry(handoff.Analyzer)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			if k := markdown.Parse(name, text).Kind; k != markdown.KindHandoff {
				t.Fatalf("kind = %v", k)
			}
			m := handoff.Parse(markdown.Parse(name, text))
			if !m.HasSession() {
				t.Fatal("no session line")
			}
			text = text[:m.SessionLine.Start] + strings.TrimLeft(text[m.SessionLine.End:], "\n")
			doc := markdown.Parse(name, text)
			if doc.Kind != markdown.KindHandoff {
				t.Fatalf("without its session line, kind = %v\n%s", doc.Kind, text)
			}
			for _, f := range reg.Analyze(doc, nil).Findings {
				if f.Rule == handoff.RuleSessionLine.ID && strings.HasPrefix(analysistest.Format(doc, f), "1:1 ") {
					return
				}
			}
			t.Errorf("without its session line, no %s finding", handoff.RuleSessionLine.ID)
		})
	}
}
