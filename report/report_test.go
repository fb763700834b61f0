package report

import (
	"bytes"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/google/go-cmp/cmp"

	"github.com/baton-md/baton/analysis"
)

// writeAll prints files through f, as a run hands them over, and closes
// what f opened.
func writeAll(f Formatter, files []*File) error {
	for _, r := range files {
		if err := f.File(r); err != nil {
			return err
		}
	}
	return f.End()
}

func TestGitHubEscaping(t *testing.T) {
	doc := markdown.Parse("x.md", "text\n")
	res := []*File{{
		Name: "a,b:c%d.md",
		Doc:  doc,
		Findings: []analysis.Finding{
			{Rule: "packet/x", Severity: analysis.Error, Span: markdown.Span{Start: 0, End: 4}, Message: "50% done: a, b\r\nnext"},
			{Rule: "packet/y", Severity: analysis.Warning, Span: markdown.Span{Start: 1, End: 1}, Message: "w"},
			{Rule: "packet/z", Severity: analysis.Info, Span: markdown.Span{Start: 0, End: 5}, Message: "i"},
			{Rule: "packet/h", Severity: analysis.Hint, Span: markdown.Span{Start: 0, End: 1}, Message: "h"},
		},
	}}
	var b bytes.Buffer
	if err := writeAll(&githubFormatter{w: &b}, res); err != nil {
		t.Fatal(err)
	}
	want := "::error file=a%2Cb%3Ac%25d.md,line=1,col=1,endLine=1,endColumn=5,title=packet/x::50%25 done: a, b%0D%0Anext\n" +
		"::warning file=a%2Cb%3Ac%25d.md,line=1,col=2,endLine=1,endColumn=2,title=packet/y::w\n" +
		"::notice file=a%2Cb%3Ac%25d.md,line=1,col=1,endLine=2,endColumn=1,title=packet/z::i\n" +
		"::notice file=a%2Cb%3Ac%25d.md,line=1,col=1,endLine=1,endColumn=2,title=packet/h::h\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("github output (-want +got):\n%s", diff)
	}
}

func TestUseColor(t *testing.T) {
	var buf bytes.Buffer
	for _, tc := range []struct {
		mode, noColor string
		want          bool
	}{
		{ColorAlways, "", true},
		{ColorAlways, "1", true}, // forcing wins over NO_COLOR
		{ColorNever, "", false},
		{ColorAuto, "", false}, // not a terminal
		{ColorAuto, "1", false},
	} {
		if got := useColor(tc.mode, &buf, tc.noColor); got != tc.want {
			t.Errorf("useColor(%q, buffer, NO_COLOR=%q) = %v, want %v", tc.mode, tc.noColor, got, tc.want)
		}
	}
}

// TestSortForOutput checks the order of a file's findings: line, column,
// rule ID, message, whatever their ends or the order they came in.
func TestSortForOutput(t *testing.T) {
	doc := markdown.Parse("x.md", "abc\ndef\n")
	f := func(start, end int, rule, msg string) analysis.Finding {
		return analysis.Finding{Rule: rule, Span: markdown.Span{Start: start, End: end}, Message: msg}
	}
	got := []analysis.Finding{
		f(4, 5, "a/a", "m"),
		f(1, 3, "b/b", "m"),
		f(1, 2, "c/c", "m"), // a shorter span of a later rule: the rule decides
		f(0, 1, "a/a", "z"),
		f(0, 8, "a/a", "b"),
		f(1, 3, "b/b", "a"),
	}
	sortForOutput(doc, got)
	want := []analysis.Finding{
		f(0, 8, "a/a", "b"),
		f(0, 1, "a/a", "z"),
		f(1, 3, "b/b", "a"),
		f(1, 3, "b/b", "m"),
		f(1, 2, "c/c", "m"),
		f(4, 5, "a/a", "m"),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

// Every text finding is one line: a message quoting a multi-line error,
// and a file name holding a line break, are kept on it.
func TestTextFindingIsOneLine(t *testing.T) {
	if got := oneLine("could not read (stat /a: permission denied\nstat /b: permission denied\r\n)"); got != "could not read (stat /a: permission denied; stat /b: permission denied; )" {
		t.Errorf("oneLine = %q", got)
	}
	if got := oneLineName("a\nb.md"); got != `"a\nb.md"` {
		t.Errorf("oneLineName = %q", got)
	}
	if got := oneLineName("plain/é.md"); got != "plain/é.md" {
		t.Errorf("oneLineName changed a plain name: %q", got)
	}
}
