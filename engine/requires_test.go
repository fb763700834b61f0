package engine_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/engine"
	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// The suite's findings do not depend on the order analyzers are listed in:
// stopintent declares that it reads packet's model, so reversing the list
// still runs packet first and stopintent's rules still fire.
func TestSuiteOrderDoesNotMatter(t *testing.T) {
	forward := engine.Registry()
	list := engine.Analyzers()
	slices.Reverse(list)
	reversed, err := analysis.NewRegistry(list...)
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("../analysis/stopintent/testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no stopintent fixtures: %v", err)
	}
	inert := 0
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name != "input.md" {
				continue
			}
			doc := markdown.Parse(file, string(f.Data))
			want := forward.Analyze(doc, nil).Findings
			got := reversed.Analyze(doc, nil).Findings
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s: reversed suite (-forward +reversed):\n%s", file, d)
			}
			for _, f := range got {
				if f.Rule == stopintent.RuleInertContinue.ID {
					inert++
				}
			}
		}
	}
	if inert == 0 {
		t.Error("no stopintent/inert-continue finding on the fixtures: the comparison proves nothing")
	}
}
