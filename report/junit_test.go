package report

import (
	"bytes"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/report/reporttest"
)

// TestJUnitEdgeCases: no files is an empty testsuites; two errors of one
// rule at one position get distinct names; control characters, which XML
// cannot carry, do not break the document.
func TestJUnitEdgeCases(t *testing.T) {
	var b bytes.Buffer
	if err := writeAll(&junitFormatter{w: &b}, nil); err != nil {
		t.Fatal(err)
	}
	if doc := reporttest.ReadJUnit(t, b.String()); len(doc.Suites) != 0 {
		t.Errorf("no files gave %d suites", len(doc.Suites))
	}

	doc := markdown.Parse("x.md", "text\n")
	r := &File{Name: "a\x01b.md", Doc: doc, Findings: []analysis.Finding{
		{Rule: "packet/x", Severity: analysis.Error, Span: markdown.Span{Start: 0, End: 4}, Message: "one \x1b[31m<red>&"},
		{Rule: "packet/x", Severity: analysis.Error, Span: markdown.Span{Start: 0, End: 4}, Message: "two"},
	}}
	b.Reset()
	if err := writeAll(&junitFormatter{w: &b}, []*File{r}); err != nil {
		t.Fatal(err)
	}
	got := reporttest.ReadJUnit(t, b.String())
	if len(got.Suites) != 1 || len(got.Suites[0].Cases) != 2 {
		t.Fatalf("%s", b.String())
	}
	if n := *got.Suites[0].Cases[1].Name; n != "packet/x (1:1) #2" {
		t.Errorf("the second testcase is named %q", n)
	}
	if m := *got.Suites[0].Cases[0].Failures[0].Message; m != "one \uFFFD[31m<red>&" {
		t.Errorf("failure message %q", m)
	}
}
