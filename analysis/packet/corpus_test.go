package packet_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
	"github.com/baton-md/baton/analysistest"
	"github.com/baton-md/baton/internal/corpus"
)

// corpusWant is, for each of specrew's packets, gate records and test
// fixtures in the shared corpus (by file name, less ".md"), the findings the
// packet rules make on it, in a fixture's want form ("LINE:COL rule-id
// message-prefix"); nil for none.
var corpusWant = map[string][]string{
	"extracted-conformance-detection-materialPacket-nonboundary":          nil,
	"extracted-conformance-detection-realPacket-clarify-to-plan":          nil,
	"extracted-design-gate-terse-packet-with-bare-path":                   {"7:1 packet/review-not-held a review request must say under \"What Happens Next\" that the work is HELD pending the response"},
	"extracted-handover-author-packet-tasks-to-before-implement":          {"1:1 packet/verdict-marker-position the verdict marker must be the last line of the packet, afte"},
	"extracted-hook-packet-capture-six-section-tasks-to-before-implement": {"1:1 packet/verdict-marker-position the verdict marker must be the last line of the packet, afte"},
	"extracted-pretag-slice2-six-section-specify-no-marker":               nil,
	"extracted-pretag-slice3-prerendered-marker-evidence-absent":          nil,
	"extracted-verdict-capture-markerless-packet-plan-to-tasks":           nil,
	"gate-141-design-analysis-001":                                        nil,
	"gate-141-design-analysis-005":                                        nil,
	"gate-171-design-analysis-001-extra-decision-evidence-section":        nil,
	"gate-174-design-analysis-001":                                        nil,
	"gate-182-design-analysis-001":                                        nil,
	"gate-198-design-analysis-001":                                        nil,
	"gate-198-design-analysis-003":                                        nil,
	"gate-198-design-analysis-005":                                        nil,
	"test-fixture-bad-approve-only-without-discussion":                    nil,
	"test-fixture-bad-context-free-discussion-prompt":                     nil,
	"test-fixture-bad-legacy3-bare-path-boundary-handoff":                 {"1:1 packet/legacy-shape this is a legacy three-section packet: add \"## What Needs Yo"},
	"test-fixture-bad-missing-why-stopped":                                {"5:1 packet/missing-section this packet has no \"Why I Stopped\" section: add it before \"#"},
	"test-fixture-golden-packet-body-plan-to-tasks":                       {"1:1 packet/verdict-marker-position the verdict marker must be the last line of the packet, afte"},
	"test-fixture-good-five-section-described-inline-references":          nil,
	"test-fixture-good-legacy3-compliant-boundary-handoff":                {"1:1 packet/legacy-shape this is a legacy three-section packet: add \"## What Needs Yo"},
	"test-fixture-good-legacy3-exempt-inline-command-handoff":             {"1:1 packet/legacy-shape this is a legacy three-section packet: add \"## What Needs Yo"},
	"test-fixture-warn-five-section-opaque-identifiers":                   nil,
}

// TestCorpus runs the packet rules over specrew's own packets, gate records
// and test fixtures, read from the shared corpus beside the repository
// (DESIGN.md: the project commits no copy of them; PROVENANCE.md there says
// where each came from), and compares their
// findings with corpusWant. Every packet document of the corpus has an
// entry, so a document added to it is not silently left out.
func TestCorpus(t *testing.T) {
	docs := corpus.Glob(t, "specrew/*.md")
	reg, err := analysis.NewRegistry(packet.Analyzer)
	if err != nil {
		t.Fatal(err)
	}
	own := map[string]bool{}
	for _, r := range packet.Analyzer.Rules {
		own[r.ID] = true
	}
	seen := map[string]bool{}
	for _, p := range docs {
		name := strings.TrimSuffix(filepath.Base(p), ".md")
		want, ok := corpusWant[name]
		if !ok {
			if strings.HasPrefix(name, "extracted-") || strings.HasPrefix(name, "gate-") || strings.HasPrefix(name, "test-fixture-") {
				t.Errorf("%s.md has no entry in corpusWant", name)
			}
			continue // the spec excerpts and templates quote packets; they are not one
		}
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			doc := markdown.Parse(name+".md", string(text))
			if doc.Kind != markdown.KindPacket {
				t.Errorf("kind = %v, want a stop packet", doc.Kind)
			}
			res := reg.Analyze(doc, nil)
			res.Findings = slices.DeleteFunc(res.Findings, func(f analysis.Finding) bool { return !own[f.Rule] })
			analysistest.Compare(t, doc, res.Findings, strings.Join(want, "\n"))
		})
	}
	for name := range corpusWant {
		if !seen[name] {
			t.Errorf("corpusWant names %s.md, which the shared corpus does not hold", name)
		}
	}
}
