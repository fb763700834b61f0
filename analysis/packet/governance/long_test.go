package governance_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet/governance"
	"github.com/baton-md/baton/analysistest"
)

// TestLongMessageFactsBesideTheChecks: a message long enough to read its
// facts beside the other checks has the findings it has read in turn.
func TestLongMessageFactsBesideTheChecks(t *testing.T) {
	filler := strings.Repeat("The work went on through specs/a.md and C:\\x\\y, blocked by T123, FR-9 and deadbeef1. ", 1200)
	text := "## What I Just Did\n\n" + filler + "\n\n## Why I Stopped\n\nWaiting for the plan boundary.\n\n## What Needs Your Review\n\nReview the plan.\n\n" +
		"## What Happens Next\n\nOn approval, the tasks.\n\n## Discussion Prompts\n\nShould we?\n\n## What I Need From You\n\nNothing.\n"
	if len(text) < governance.ParallelFacts() {
		t.Fatalf("the message is %d bytes, under %d", len(text), governance.ParallelFacts())
	}
	format := func(res *analysis.Result) string {
		var b strings.Builder
		for _, f := range res.Findings {
			fmt.Fprintf(&b, "%d-%d %s %s\n", f.Span.Start, f.Span.End, f.Rule, f.Message)
		}
		return b.String()
	}
	beside := format(analysistest.AnalyzeAt(t, "", "stop.md", text, "plan"))
	defer governance.SetParallelFacts(1 << 30)()
	inTurn := format(analysistest.AnalyzeAt(t, "", "stop.md", text, "plan"))
	if beside != inTurn {
		t.Errorf("read beside the checks:\n%s\nin turn:\n%s", beside, inTurn)
	}
	if strings.Count(inTurn, "\n") < 5 {
		t.Errorf("only these findings, the test reads little:\n%s", inTurn)
	}
}
