package stopintent_test

import (
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
	"github.com/baton-md/baton/analysis/stopintent"
)

// In a stop with no marker the editor offers both stop-intent markers at
// its end; in a boundary packet whose front matter names the boundary,
// the verdict marker too.
func TestInsertions(t *testing.T) {
	reg, err := analysis.NewRegistry(packet.Analyzer, stopintent.Analyzer)
	if err != nil {
		t.Fatal(err)
	}
	text := "---\nfrom_boundary: spec\nto_boundary: plan\n---\n## What I Just Did\n\nWork.\n\n## Why I Stopped\n\nA boundary.\n\n## What Needs Your Review\n\nThe spec.\n\n## What Happens Next\n\nOn approval, the plan.\n\n## Discussion Prompts\n\nNone.\n\n## What I Need From You\n\nApprove or send back.\n"
	res := reg.Analyze(markdown.Parse("x.md", text), nil)
	fixes := stopintent.Insertions(res, strings.Index(text, "Work."))
	var titles []string
	for _, f := range fixes {
		titles = append(titles, f.Title)
		out, err := analysis.ApplyEdits(text, f.Edits)
		if err != nil || !strings.HasSuffix(out, "send back.\n\n"+strings.TrimPrefix(f.Edits[0].NewText, "\n\n")+"\n") {
			t.Errorf("%s: %q, %v", f.Title, out, err)
		}
	}
	want := []string{"Insert the continue stop-intent marker", "Insert the intermediate stop-intent marker", "Insert the verdict marker <!-- SPECREW-VERDICT-BOUNDARY: spec -> plan -->"}
	if strings.Join(titles, "|") != strings.Join(want, "|") {
		t.Errorf("titles = %q, want %q", titles, want)
	}
	if got := stopintent.Insertions(reg.Analyze(markdown.Parse("x.md", "plain text\n"), nil), 0); len(got) != 0 {
		t.Errorf("other Markdown: %+v", got)
	}
}
