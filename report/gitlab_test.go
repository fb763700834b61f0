package report

import (
	"bytes"
	"slices"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/report/reporttest"
)

// TestGitLabFingerprints checks that a fingerprint stays when the finding
// moves (an edit above it), and differs between findings alike but for
// their place, and between files.
func TestGitLabFingerprints(t *testing.T) {
	finding := func(at int, msg string) analysis.Finding {
		return analysis.Finding{Rule: "packet/x", Severity: analysis.Warning, Span: markdown.Span{Start: at, End: at + 1}, Message: msg}
	}
	fingerprints := func(name, text string, fs ...analysis.Finding) []string {
		var b bytes.Buffer
		if err := writeAll(&gitlabFormatter{w: &b}, []*File{{Name: name, Doc: markdown.Parse(name, text), Findings: fs}}); err != nil {
			t.Fatal(err)
		}
		var fps []string
		for _, is := range reporttest.ReadGitLab(t, b.String()) {
			fps = append(fps, is["fingerprint"].(string))
		}
		return fps
	}
	before := fingerprints("a.md", "x\ny\n", finding(0, "m"), finding(2, "m"), finding(2, "other"))
	after := fingerprints("a.md", "new\n\nx\ny\n", finding(5, "m"), finding(7, "m"), finding(7, "other"))
	if !slices.Equal(before, after) {
		t.Errorf("moving the findings down two lines changed their fingerprints: %q, then %q", before, after)
	}
	if elsewhere := fingerprints("b.md", "x\ny\n", finding(0, "m")); elsewhere[0] == before[0] {
		t.Error("the same finding in another file has the same fingerprint")
	}
}

// TestGitLabLines checks location.lines: 1-based, and a span that ends with
// a line break ends on the line the break closes.
func TestGitLabLines(t *testing.T) {
	doc := markdown.Parse("a.md", "x\ny\nz\n")
	var b bytes.Buffer
	r := &File{Name: "a.md", Doc: doc, Findings: []analysis.Finding{
		{Rule: "packet/x", Severity: analysis.Error, Span: markdown.Span{Start: 0, End: 2}, Message: "line 1 and its break"},
		{Rule: "packet/x", Severity: analysis.Error, Span: markdown.Span{Start: 2, End: 5}, Message: "lines 2 and 3"},
		{Rule: "packet/x", Severity: analysis.Error, Span: markdown.Span{Start: 4, End: 4}, Message: "empty, on line 3"},
	}}
	if err := writeAll(&gitlabFormatter{w: &b}, []*File{r}); err != nil {
		t.Fatal(err)
	}
	var got [][2]float64
	for _, is := range reporttest.ReadGitLab(t, b.String()) {
		lines := is["location"].(map[string]any)["lines"].(map[string]any)
		got = append(got, [2]float64{lines["begin"].(float64), lines["end"].(float64)})
	}
	if want := [][2]float64{{1, 1}, {2, 3}, {3, 3}}; !slices.Equal(got, want) {
		t.Errorf("lines %v, want %v", got, want)
	}
}
