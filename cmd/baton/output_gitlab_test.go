package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/baton-md/baton/analysis"
)

// The fields GitLab documents for a Code Quality issue
// (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format):
// description, check_name, fingerprint, severity (info, minor, major,
// critical or blocker), location.path and location.lines.begin, all
// required; and type "issue", from the Code Climate specification.
func checkGitLabIssues(t *testing.T, out string) []map[string]any {
	t.Helper()
	var issues []map[string]any
	if err := json.Unmarshal([]byte(out), &issues); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, out)
	}
	if issues == nil {
		t.Fatalf("null, want an array: %s", out)
	}
	hex64 := regexp.MustCompile(`^[0-9a-f]{64}$`)
	str := func(i int, m map[string]any, k string) string {
		t.Helper()
		s, ok := m[k].(string)
		if !ok || s == "" {
			t.Errorf("issue %d: %s is %#v, want a non-empty string", i, k, m[k])
		}
		return s
	}
	fingerprints := map[string]bool{}
	for i, is := range issues {
		str(i, is, "description")
		str(i, is, "check_name")
		if is["type"] != "issue" {
			t.Errorf("issue %d: type %v", i, is["type"])
		}
		if s := str(i, is, "severity"); !slices.Contains([]string{"info", "minor", "major", "critical", "blocker"}, s) {
			t.Errorf("issue %d: severity %q", i, s)
		}
		fp := str(i, is, "fingerprint")
		if !hex64.MatchString(fp) || fingerprints[fp] {
			t.Errorf("issue %d: fingerprint %q is not a fresh SHA-256", i, fp)
		}
		fingerprints[fp] = true
		loc, _ := is["location"].(map[string]any)
		if loc == nil {
			t.Fatalf("issue %d: no location", i)
		}
		if p := str(i, loc, "path"); filepath.IsAbs(p) {
			t.Errorf("issue %d: path %q is not relative", i, p)
		}
		lines, _ := loc["lines"].(map[string]any)
		begin, ok := lines["begin"].(float64)
		if !ok || begin < 1 {
			t.Errorf("issue %d: location.lines.begin %v", i, lines["begin"])
		}
		if end, ok := lines["end"].(float64); !ok || end < begin {
			t.Errorf("issue %d: location.lines.end %v", i, lines["end"])
		}
	}
	return issues
}

func TestGitLab(t *testing.T) {
	out, code := checkIn(t, everyShape, "", "--format", "gitlab", "marker.md", "missing.md", "stop.md", "clean.md")
	if code != exitFindings {
		t.Errorf("exit status %d, want %d", code, exitFindings)
	}
	issues := checkGitLabIssues(t, out)
	type issue struct {
		Check, Severity, Path string
		Begin, End            float64
	}
	var got []issue
	for _, is := range issues {
		loc := is["location"].(map[string]any)
		lines := loc["lines"].(map[string]any)
		got = append(got, issue{is["check_name"].(string), is["severity"].(string), loc["path"].(string), lines["begin"].(float64), lines["end"].(float64)})
	}
	want := []issue{
		{"packet/thin-what-i-just-did", "minor", "marker.md", 1, 1},
		{"packet/verdict-marker-position", "minor", "marker.md", 5, 5},
		{"packet/heading-level", "info", "marker.md", 7, 7},
		{"packet/unnamed-boundary", "minor", "marker.md", 7, 7},
		{"packet/unactionable-request", "minor", "marker.md", 23, 23},
		{"packet/missing-section", "major", "missing.md", 5, 5},
		{"packet/heading-level", "info", "missing.md", 9, 9},
		{"stopintent/near-miss", "minor", "stop.md", 3, 3},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("issues (-want +got):\n%s", diff)
	}
	if d := issues[5]["description"]; d != "packet/missing-section: this packet has no \"Why I Stopped\" section: add it before \"## What Needs Your Review\"" {
		t.Errorf("description %q", d)
	}

	again, _ := checkIn(t, everyShape, "", "--format", "gitlab", "marker.md", "missing.md", "stop.md", "clean.md")
	if again != out {
		t.Error("a second run gave other bytes")
	}
	clean, _ := checkIn(t, everyShape, "", "--format", "gitlab", "clean.md")
	if clean != "[]\n" {
		t.Errorf("no findings: %q, want []", clean)
	}
}

// TestGitLabFingerprints checks that a fingerprint stays when the finding
// moves (an edit above it), and differs between findings alike but for
// their place, and between files.
func TestGitLabFingerprints(t *testing.T) {
	finding := func(at int, msg string) analysis.Finding {
		return analysis.Finding{Rule: "packet/x", Severity: analysis.Warning, Span: analysis.Span{Start: at, End: at + 1}, Message: msg}
	}
	fingerprints := func(name, text string, fs ...analysis.Finding) []string {
		var b bytes.Buffer
		if err := writeAll(&gitlabFormatter{w: &b}, []*fileResult{{name: name, doc: analysis.Parse(name, text), findings: fs}}); err != nil {
			t.Fatal(err)
		}
		var fps []string
		for _, is := range checkGitLabIssues(t, b.String()) {
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
	doc := analysis.Parse("a.md", "x\ny\nz\n")
	var b bytes.Buffer
	r := &fileResult{name: "a.md", doc: doc, findings: []analysis.Finding{
		{Rule: "packet/x", Severity: analysis.Error, Span: analysis.Span{Start: 0, End: 2}, Message: "line 1 and its break"},
		{Rule: "packet/x", Severity: analysis.Error, Span: analysis.Span{Start: 2, End: 5}, Message: "lines 2 and 3"},
		{Rule: "packet/x", Severity: analysis.Error, Span: analysis.Span{Start: 4, End: 4}, Message: "empty, on line 3"},
	}}
	if err := writeAll(&gitlabFormatter{w: &b}, []*fileResult{r}); err != nil {
		t.Fatal(err)
	}
	var got [][2]float64
	for _, is := range checkGitLabIssues(t, b.String()) {
		lines := is["location"].(map[string]any)["lines"].(map[string]any)
		got = append(got, [2]float64{lines["begin"].(float64), lines["end"].(float64)})
	}
	if want := [][2]float64{{1, 1}, {2, 3}, {3, 3}}; !slices.Equal(got, want) {
		t.Errorf("lines %v, want %v", got, want)
	}
}
