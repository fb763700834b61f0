package packet_test

import (
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
	"github.com/google/go-cmp/cmp"
)

func featureResult(t *testing.T, text string) *analysis.Result {
	t.Helper()
	reg, err := analysis.NewRegistry(packet.Analyzer)
	if err != nil {
		t.Fatal(err)
	}
	return reg.Analyze(markdown.Parse("stop.md", text), nil)
}

const threeSections = "## What I Just Did\n\nWork.\n\n## Why I Stopped\n\nDone.\n\n## What Happens Next\n\nNothing.\n\n## "

// On a heading line, the sections the packet lacks, in packet order; a
// material-work packet is not offered Discussion Prompts.
func TestCompleteSection(t *testing.T) {
	res := featureResult(t, threeSections)
	off := len(threeSections)
	c := packet.CompleteSection(res, off)
	var labels []string
	for _, it := range c.Items {
		labels = append(labels, it.Label)
		if it.Edit.Span != (markdown.Span{Start: off - 3, End: off}) || it.Edit.NewText != it.Label {
			t.Errorf("%s: edit %+v", it.Label, it.Edit)
		}
	}
	want := []string{"## What Needs Your Review", "## What I Need From You"}
	if d := cmp.Diff(want, labels); d != "" {
		t.Errorf("labels (-want +got):\n%s", d)
	}
	if c := packet.CompleteSection(res, strings.Index(threeSections, "Work.")+2); len(c.Items) != 0 {
		t.Errorf("completion in prose = %+v, want none", c.Items)
	}
}

// Other Markdown is offered the sections only while it holds nothing but
// the heading line being typed.
func TestCompleteSectionNewDocument(t *testing.T) {
	if c := packet.CompleteSection(featureResult(t, "## "), 3); len(c.Items) != len(markdown.PacketHeadings) {
		t.Errorf("a new document is offered %d sections, want %d", len(c.Items), len(markdown.PacketHeadings))
	}
	if c := packet.CompleteSection(featureResult(t, "# Notes\n\nText.\n\n## "), 18); len(c.Items) != 0 {
		t.Errorf("other Markdown is offered %+v", c.Items)
	}
}

func TestSymbolsAndFolds(t *testing.T) {
	one := "## What I Just Did\n\nWork.\n\n## Why I Stopped\n\nDone.\n\n## What Happens Next\n\nNothing.\n"
	res := featureResult(t, one+"\n"+one)
	syms := packet.Symbols(res)
	if len(syms) != 2 || syms[0].Name != "Stop packet 1" || syms[0].Detail != "material work" || len(syms[0].Children) != 3 {
		t.Fatalf("symbols = %+v", syms)
	}
	if got := res.Doc.String(syms[0].Children[2].Span); got != "## What Happens Next\n\nNothing." {
		t.Errorf("a section's span, trimmed = %q", got)
	}
	if folds := packet.Folds(res); len(folds) != 2 {
		t.Errorf("folds = %v, want one per packet", folds)
	}
	if folds := packet.Folds(featureResult(t, one)); folds != nil {
		t.Errorf("folds of a single packet = %v, want none", folds)
	}
}
