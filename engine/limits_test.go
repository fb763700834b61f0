package engine_test

import (
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/engine"
)

// A document over MaxDocumentBytes is not parsed: one finding says so.
func TestDocumentTooLarge(t *testing.T) {
	text := strings.Repeat("## What I Just Did\n\nWork.\n\n", markdown.MaxDocumentBytes/26+1)
	doc := markdown.Parse("big.md", text)
	if doc.TooLarge != len(text) || doc.Kind != markdown.KindOther {
		t.Fatalf("TooLarge %d, kind %v; want %d, other", doc.TooLarge, doc.Kind, len(text))
	}
	res := engine.Registry().Analyze(doc, nil)
	if len(res.Findings) != 1 || res.Findings[0].Rule != analysis.RuleDocumentTooLarge.ID ||
		!strings.Contains(res.Findings[0].Message, "over the 16 MiB baton analyses: it was not checked") {
		t.Fatalf("findings = %+v", res.Findings)
	}
	off := analysis.Config{Severity: map[string]analysis.Severity{analysis.RuleDocumentTooLarge.ID: analysis.Off}}
	if res := engine.Registry().Analyze(doc, &off); len(res.Findings) != 0 {
		t.Errorf("set off, still %+v", res.Findings)
	}
	if res := engine.Registry().TooLargeResult("big.md", 50<<20, nil); len(res.Findings) != 1 || !strings.Contains(res.Findings[0].Message, "50.0 MiB") {
		t.Errorf("TooLargeResult = %+v", res.Findings)
	}
}

// Past MaxFindings, the rest are counted in one finding, by rule.
func TestTooManyFindings(t *testing.T) {
	// Each repeated first heading starts a packet that lacks three sections.
	text := strings.Repeat("## What I Just Did\n\nWork.\n\n## Why I Stopped\n\nDone.\n\n## What Happens Next\n\nI will start on approval.\n\n", 600)
	res := engine.Registry().Analyze(markdown.Parse("many.md", text), nil)
	if len(res.Findings) != analysis.MaxFindings+1 {
		t.Fatalf("%d findings, want %d and the summary", len(res.Findings), analysis.MaxFindings)
	}
	last := res.Findings[len(res.Findings)-1]
	if last.Rule != analysis.RuleTooManyFindings.ID || !strings.Contains(last.Message, "more findings from here on are not reported (baton reports 1000 per document): ") ||
		!strings.Contains(last.Message, " packet/missing-section") {
		t.Errorf("summary = %+v", last)
	}
	if last.Span.Start < res.Findings[len(res.Findings)-2].Span.Start {
		t.Errorf("the summary stands before the last finding kept")
	}
}
