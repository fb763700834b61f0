package packet_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/analysistest"
	"github.com/baton-md/baton/analysis/packet"
)

// corpusDir is the shared corpus of real documents, beside the repository
// (DESIGN.md: the project commits no copy of them).
const corpusDir = "../../../shared/corpus/specrew"

// TestCorpus runs the packet rules over specrew's own packets, gate records
// and test fixtures, read from the shared corpus: testdata/corpus/NAME.want
// holds the findings expected on NAME.md, in a fixture's want format.
func TestCorpus(t *testing.T) {
	wants, err := filepath.Glob("testdata/corpus/*.want")
	if err != nil {
		t.Fatal(err)
	}
	if len(wants) == 0 {
		t.Fatal("no expectations under testdata/corpus")
	}
	reg, err := analysis.NewRegistry(packet.Analyzer)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range wants {
		name := strings.TrimSuffix(filepath.Base(w), ".want")
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(w)
			if err != nil {
				t.Fatal(err)
			}
			text, err := os.ReadFile(filepath.Join(corpusDir, name+".md"))
			if err != nil {
				t.Fatalf("the shared corpus is beside the repository: %v", err)
			}
			doc := analysis.Parse(name+".md", string(text))
			if doc.Kind != analysis.KindPacket {
				t.Errorf("kind = %v, want a stop packet", doc.Kind)
			}
			res := reg.Analyze(doc, nil)
			own := map[string]bool{}
			for _, r := range packet.Analyzer.Rules {
				own[r.ID] = true
			}
			res.Findings = slices.DeleteFunc(res.Findings, func(f analysis.Finding) bool { return !own[f.Rule] })
			analysistest.Compare(t, doc, res.Findings, string(want))
		})
	}
}
