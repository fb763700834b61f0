package stopintent_test

import (
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
	"github.com/baton-md/baton/analysis/stopintent"
)

func featureResult(t *testing.T, text string) *analysis.Result {
	t.Helper()
	reg, err := analysis.NewRegistry(packet.Analyzer, stopintent.Analyzer)
	if err != nil {
		t.Fatal(err)
	}
	return reg.Analyze(markdown.Parse("stop.md", text), nil)
}

// On a packet's first heading: what the section holds, the FR-045a
// contract, then the stop's outcome, all over the heading.
func TestHoverFirstHeading(t *testing.T) {
	res := featureResult(t, reviewPacket)
	hs := stopintent.Hover(res, 4)
	if len(hs) != 3 {
		t.Fatalf("hover = %d parts, want 3: %+v", len(hs), hs)
	}
	for i, want := range []string{"### What I Just Did", "**Consistency (FR-045a):**", "**Stop intent: "} {
		if !strings.HasPrefix(hs[i].Markdown, want) {
			t.Errorf("part %d = %q, want it to start %q", i, hs[i].Markdown, want)
		}
		if got := res.Doc.String(hs[i].Span); got != "## What I Just Did" {
			t.Errorf("part %d spans %q", i, got)
		}
	}
	if hs := stopintent.Hover(res, strings.Index(reviewPacket, "## Why")+4); len(hs) != 1 {
		t.Errorf("a later heading has %d parts, want 1", len(hs))
	}
}

func TestHoverMarker(t *testing.T) {
	res := featureResult(t, continueMessage)
	hs := stopintent.Hover(res, strings.Index(continueMessage, "STOP-INTENT"))
	if len(hs) != 1 || !strings.Contains(hs[0].Markdown, "Marker: `"+stopintent.ContinueMarker+"`") {
		t.Errorf("hover on the marker = %+v", hs)
	}
}

func TestLenses(t *testing.T) {
	res := featureResult(t, reviewPacket)
	ls := stopintent.Lenses(res)
	if len(ls) != 1 || ls[0].At != 0 || !strings.HasPrefix(ls[0].Title, "Stop intent: ") {
		t.Errorf("lenses = %+v", ls)
	}
}

// After "<!--", the markers replace what was typed from "<!--" on.
func TestCompleteMarker(t *testing.T) {
	text := reviewPacket + "\n<!-- SPEC"
	res := featureResult(t, text)
	c := stopintent.CompleteMarker(res, len(text))
	if c == nil || len(c.Items) != 3 {
		t.Fatalf("completion = %+v", c)
	}
	for _, it := range c.Items {
		if it.Edit.Span != (markdown.Span{Start: len(text) - len("<!-- SPEC"), End: len(text)}) || it.Kind != analysis.CompleteSnippet {
			t.Errorf("%s: %+v", it.Label, it)
		}
		if !strings.HasPrefix(it.FilterText, "<!-- SPEC") {
			t.Errorf("%s: filter text %q", it.Label, it.FilterText)
		}
	}
	if got := c.Items[0].Label; got != stopintent.ContinueMarker {
		t.Errorf("first item %q, want the continue marker", got)
	}
	if c := stopintent.CompleteMarker(res, 4); c != nil {
		t.Errorf("completion on a heading = %+v, want none", c)
	}
}

// In a specrew project the hover's table says the async inputs come from
// specrew's stop provider, and the outcome is real.
func TestHoverSpecrewProviderInputs(t *testing.T) {
	reg, err := analysis.NewRegistry(packet.Analyzer, stopintent.Analyzer)
	if err != nil {
		t.Fatal(err)
	}
	res := reg.AnalyzeEnv(markdown.Parse("stop.md", donePacketNoReview), nil, analysis.Env{stopintent.EnvWorkspace: authorizedState()})
	hs := stopintent.Hover(res, 4)
	if len(hs) == 0 {
		t.Fatal("no hover on the first heading")
	}
	h := hs[len(hs)-1].Markdown
	for _, want := range []string{
		"**Stop intent: real** — " + stopintent.ReasonDefault,
		"| OwnedWorkInFlight | false | specrew's stop provider: ",
		"| RuntimeWorkKnownTerminal | false | specrew's stop provider: ",
		"specrew-conformance-provider.ps1",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("hover lacks %q:\n%s", want, h)
		}
	}
}

// donePacketNoReview is a material-work packet that asks nothing and says
// nothing of completion.
const donePacketNoReview = `## What I Just Did

Moved the retry cap into the client.

## Why I Stopped

A checkpoint after the change.

## What Needs Your Review

Nothing.

## What Happens Next

The timeout handling, in the same task.

## What I Need From You

Nothing.
`
