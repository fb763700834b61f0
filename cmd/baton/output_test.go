package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/baton-md/baton/analysis"
)

// Documents with findings of every shape: with safe and unsafe fixes,
// fixes of several edits, related locations, and none. docMissingSection is
// a boundary packet (it has Discussion Prompts) missing Why I Stopped, an
// error; docMarkerAndHeading's prompt has context and a default, so it has
// warnings and a hint only.
const (
	docMarkerAndHeading = "## What I Just Did\n\nDrafted the plan.\n\n<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->\n\n### Why I Stopped\n\nBoundary: plan.\n\n## What Needs Your Review\n\nThe scope table in plan.md.\n\n## What Happens Next\n\nOn approval I derive the tasks.\n\n## Discussion Prompts\n\n1. Because the flag sets the default scope, is default-off acceptable? Recommended default: yes.\n\n## What I Need From You\n\nReply: approved for tasks / rejected for tasks.\n"
	docMissingSection   = "## What I Just Did\n\nUpdated the plan.\n\n## What Needs Your Review\n\n- Approve the plan?\n\n### What Happens Next\n\nOn approval, I will start.\n\n## Discussion Prompts\n\n1. Because the plan sets the scope, should I start from it as written? Recommended default: yes.\n\n## What I Need From You\n\nReply \"approved\".\n"
	docOutOfOrder       = "## What I Just Did\n\nReordered — the sections, café.\n\n## What Needs Your Review\n\nThe new order.\n\n## Why I Stopped\n\nTo show a section out of order.\n\n## What Happens Next\n\nNothing.\n\n## What I Need From You\n\nReply \"ok\".\n"
	docNearMiss         = "Waiting for the CI run of task 4.\n\n<!--   SPECREW-STOP-INTENT:intermediate   -->\n"
	docClean            = "# Notes\n\nNothing to see.\n"
)

// checkIn writes files into a fresh working directory, runs baton check
// there with args, and returns stdout and the exit status.
func checkIn(t *testing.T, files map[string]string, stdin string, args ...string) (stdout string, code int) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	code = run(append([]string{"check"}, args...), strings.NewReader(stdin), &out, &errOut)
	if errOut.Len() > 0 {
		t.Errorf("baton check %s wrote to stderr:\n%s", strings.Join(args, " "), errOut.String())
	}
	return out.String(), code
}

var everyShape = map[string]string{
	"marker.md":  docMarkerAndHeading,
	"missing.md": docMissingSection,
	"order.md":   docOutOfOrder,
	"stop.md":    docNearMiss,
	"clean.md":   docClean,
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestArtifactURI(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"a.md":                          "a.md",
		"docs/a b.md":                   "docs/a%20b.md",
		"<stdin>":                       "%3Cstdin%3E",
		"x:y.md":                        "./x:y.md",
		filepath.Join(wd, "in", "a.md"): "in/a.md",
		"/elsewhere/a.md":               "file:///elsewhere/a.md",
	} {
		if got := artifactURI(path); got != want {
			t.Errorf("artifactURI(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestJSONFields checks that the JSON output has exactly the fields
// docs/json-format.md documents, each of the documented type.
func TestJSONFields(t *testing.T) {
	out, code := checkIn(t, everyShape, docNearMiss, "--format", "json", "marker.md", "missing.md", "order.md", "clean.md", "-")
	if code != exitFindings {
		t.Errorf("exit status %d, want %d", code, exitFindings)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	keys := func(where string, m any, want ...string) map[string]any {
		t.Helper()
		obj, ok := m.(map[string]any)
		if !ok {
			t.Fatalf("%s is %T, want an object", where, m)
		}
		got := slices.Sorted(maps.Keys(obj))
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s has the fields %q, want %q", where, got, want)
		}
		return obj
	}
	array := func(where string, v any) []any {
		t.Helper()
		a, ok := v.([]any)
		if !ok {
			t.Fatalf("%s is %T, want an array (never null)", where, v)
		}
		return a
	}
	position := func(where string, v any) {
		t.Helper()
		p := keys(where, v, "line", "column", "offset")
		for _, k := range []string{"line", "column"} {
			if n, ok := p[k].(float64); !ok || n < 1 {
				t.Errorf("%s.%s = %v, want a number from 1", where, k, p[k])
			}
		}
		if n, ok := p["offset"].(float64); !ok || n < 0 {
			t.Errorf("%s.offset = %v, want a number from 0", where, p["offset"])
		}
	}
	keys("the report", v, "version", "files", "summary")
	if v["version"] != float64(1) {
		t.Errorf("version %v, want 1", v["version"])
	}
	files := array("files", v["files"])
	var paths []string
	counts := map[string]int{}
	for _, f := range files {
		file := keys("a file", f, "path", "kind", "kind_reason", "findings")
		paths = append(paths, file["path"].(string))
		for _, fi := range array("findings", file["findings"]) {
			finding := keys("a finding", fi, "rule", "severity", "message", "start", "end", "related", "fixes", "help")
			counts[finding["severity"].(string)]++
			position("start", finding["start"])
			position("end", finding["end"])
			if want := "https://github.com/baton-md/baton/blob/main/docs/rules.md#" + analysis.Anchor(finding["rule"].(string)); finding["help"] != want {
				t.Errorf("help %v, want %s", finding["help"], want)
			}
			for _, r := range array("related", finding["related"]) {
				rel := keys("a related location", r, "message", "start", "end")
				position("related start", rel["start"])
				position("related end", rel["end"])
			}
			for _, x := range array("fixes", finding["fixes"]) {
				fix := keys("a fix", x, "title", "safe", "edits")
				if _, ok := fix["safe"].(bool); !ok {
					t.Errorf("safe is %T", fix["safe"])
				}
				for _, e := range array("edits", fix["edits"]) {
					edit := keys("an edit", e, "start", "end", "new_text")
					position("edit start", edit["start"])
					position("edit end", edit["end"])
				}
			}
		}
	}
	if want := []string{"marker.md", "missing.md", "order.md", "clean.md", "<stdin>"}; !slices.Equal(paths, want) {
		t.Errorf("paths %q, want %q (every file, in the order named)", paths, want)
	}
	summary := keys("summary", v["summary"], "files", "errors", "warnings", "infos", "hints")
	want := map[string]any{"files": 5.0, "errors": 1.0, "warnings": 6.0, "infos": 0.0, "hints": 2.0}
	if diff := cmp.Diff(want, summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if counts["error"] != 1 || counts["warning"] != 6 || counts["hint"] != 2 {
		t.Errorf("severities %v do not add up to the summary", counts)
	}
	if strings.Contains(out, `\u003c`) {
		t.Error("the JSON escapes < and > (HTML escaping): markers should read as written")
	}
}

func TestJSONPositions(t *testing.T) {
	// A finding on line 2 after a two-byte character: the column counts
	// bytes.
	doc := analysis.Parse("x.md", "a\né x\n")
	if got, want := jsonPos(doc, len("a\né ")), (jsonPosition{Line: 2, Column: 4, Offset: 5}); got != want {
		t.Errorf("jsonPos = %+v, want %+v", got, want)
	}
}

func TestGitHubEscaping(t *testing.T) {
	doc := analysis.Parse("x.md", "text\n")
	res := []*fileResult{{
		name: "a,b:c%d.md",
		doc:  doc,
		findings: []analysis.Finding{
			{Rule: "packet/x", Severity: analysis.Error, Span: analysis.Span{Start: 0, End: 4}, Message: "50% done: a, b\r\nnext"},
			{Rule: "packet/y", Severity: analysis.Warning, Span: analysis.Span{Start: 1, End: 1}, Message: "w"},
			{Rule: "packet/z", Severity: analysis.Info, Span: analysis.Span{Start: 0, End: 5}, Message: "i"},
			{Rule: "packet/h", Severity: analysis.Hint, Span: analysis.Span{Start: 0, End: 1}, Message: "h"},
		},
	}}
	var b bytes.Buffer
	if err := writeGitHub(&b, res); err != nil {
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
		{colorAlways, "", true},
		{colorAlways, "1", true}, // forcing wins over NO_COLOR
		{colorNever, "", false},
		{colorAuto, "", false}, // not a terminal
		{colorAuto, "1", false},
	} {
		if got := useColor(tc.mode, &buf, tc.noColor); got != tc.want {
			t.Errorf("useColor(%q, buffer, NO_COLOR=%q) = %v, want %v", tc.mode, tc.noColor, got, tc.want)
		}
	}
}

// TestSortForOutput checks the order of a file's findings: line, column,
// rule ID, message, whatever their ends or the order they came in.
func TestSortForOutput(t *testing.T) {
	doc := analysis.Parse("x.md", "abc\ndef\n")
	f := func(start, end int, rule, msg string) analysis.Finding {
		return analysis.Finding{Rule: rule, Span: analysis.Span{Start: start, End: end}, Message: msg}
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
