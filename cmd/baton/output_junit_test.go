package main

import (
	"bytes"
	"encoding/xml"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/baton-md/baton/analysis"
)

// The JUnit XML schema that Jenkins' xUnit plugin publishes (junit-10.xsd,
// jenkinsci/xunit-plugin, src/main/resources/org/jenkinsci/plugins/xunit/
// types/model/xsd/junit-10.xsd), as Go structs: each element with the
// attributes and children the schema allows it, those it requires as
// "req" in a comment. Anything else lands in Unknown and fails the test.
type (
	xsdTestsuites struct {
		XMLName  xml.Name       `xml:"testsuites"`
		Name     *string        `xml:"name,attr"`
		Time     *string        `xml:"time,attr"`
		Tests    *string        `xml:"tests,attr"`
		Failures *string        `xml:"failures,attr"`
		Errors   *string        `xml:"errors,attr"`
		Suites   []xsdTestsuite `xml:"testsuite"`
		Unknown  []xml.Attr     `xml:",any,attr"`
		Other    []xsdAny       `xml:",any"`
	}
	xsdTestsuite struct {
		Name      *string       `xml:"name,attr"`     // req
		Tests     *string       `xml:"tests,attr"`    // req
		Failures  *string       `xml:"failures,attr"` // req
		Errors    *string       `xml:"errors,attr"`   // req
		Group     *string       `xml:"group,attr"`
		Time      *string       `xml:"time,attr"` // SUREFIRE_TIME
		Skipped   *string       `xml:"skipped,attr"`
		Timestamp *string       `xml:"timestamp,attr"`
		Hostname  *string       `xml:"hostname,attr"`
		ID        *string       `xml:"id,attr"`
		Package   *string       `xml:"package,attr"`
		File      *string       `xml:"file,attr"`
		Log       *string       `xml:"log,attr"`
		URL       *string       `xml:"url,attr"`
		Cases     []xsdTestcase `xml:"testcase"`
		SystemOut []string      `xml:"system-out"`
		SystemErr []string      `xml:"system-err"`
		Unknown   []xml.Attr    `xml:",any,attr"`
		Other     []xsdAny      `xml:",any"`
	}
	xsdTestcase struct {
		Name      *string      `xml:"name,attr"` // req
		Time      *string      `xml:"time,attr"`
		Classname *string      `xml:"classname,attr"`
		Group     *string      `xml:"group,attr"`
		Failures  []xsdFailure `xml:"failure"`
		Errors    []xsdFailure `xml:"error"`
		Skipped   []xsdFailure `xml:"skipped"`
		SystemOut []string     `xml:"system-out"`
		SystemErr []string     `xml:"system-err"`
		Unknown   []xml.Attr   `xml:",any,attr"`
		Other     []xsdAny     `xml:",any"`
	}
	xsdFailure struct {
		Type    *string    `xml:"type,attr"`
		Message *string    `xml:"message,attr"`
		Text    string     `xml:",chardata"`
		Unknown []xml.Attr `xml:",any,attr"`
		Other   []xsdAny   `xml:",any"`
	}
	xsdAny struct {
		XMLName xml.Name
	}
)

// surefireTime is the schema's SUREFIRE_TIME pattern.
var surefireTime = regexp.MustCompile(`^(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?$`)

// readJUnit parses a report and checks it against the schema's shape and
// GitLab's reading of it (a test's name unique within its class).
func readJUnit(t *testing.T, out string) xsdTestsuites {
	t.Helper()
	if !strings.HasPrefix(out, xml.Header) {
		t.Errorf("no XML declaration: %q", out)
	}
	var doc xsdTestsuites
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, out)
	}
	unknown := func(where string, attrs []xml.Attr, other []xsdAny) {
		t.Helper()
		for _, a := range attrs {
			t.Errorf("%s: the schema has no attribute %s", where, a.Name.Local)
		}
		for _, o := range other {
			t.Errorf("%s: the schema has no element %s here", where, o.XMLName.Local)
		}
	}
	unknown("testsuites", doc.Unknown, doc.Other)
	for _, s := range doc.Suites {
		if s.Name == nil || s.Tests == nil || s.Failures == nil || s.Errors == nil {
			t.Fatalf("a testsuite lacks a required attribute (name, tests, failures, errors): %+v", s)
		}
		where := "testsuite " + *s.Name
		unknown(where, s.Unknown, s.Other)
		if s.Time != nil && !surefireTime.MatchString(*s.Time) {
			t.Errorf("%s: time %q", where, *s.Time)
		}
		failures := 0
		names := map[string]bool{}
		for _, c := range s.Cases {
			if c.Name == nil {
				t.Fatalf("%s: a testcase without a name", where)
			}
			unknown(where+" testcase "+*c.Name, c.Unknown, c.Other)
			for _, f := range c.Failures {
				unknown(where+" failure", f.Unknown, f.Other)
			}
			key := *c.Name
			if c.Classname != nil {
				key = *c.Classname + "\x00" + key
			}
			if names[key] {
				t.Errorf("%s: two testcases named %q (GitLab keeps only the first)", where, *c.Name)
			}
			names[key] = true
			failures += len(c.Failures)
		}
		if *s.Tests != strconv.Itoa(len(s.Cases)) || *s.Failures != strconv.Itoa(failures) || *s.Errors != "0" {
			t.Errorf("%s: tests=%s failures=%s errors=%s, but it holds %d testcases, %d failures", where, *s.Tests, *s.Failures, *s.Errors, len(s.Cases), failures)
		}
	}
	return doc
}

// TestJUnit checks --format junit: one testsuite a file, an error finding a
// failed testcase (class: the file; name: the rule and position), a file
// without errors one passing testcase, and its other findings in the
// suite's system-out.
func TestJUnit(t *testing.T) {
	out, code := checkIn(t, everyShape, "", "--format", "junit", "marker.md", "missing.md", "clean.md")
	if code != exitFindings {
		t.Errorf("exit status %d, want %d", code, exitFindings)
	}
	doc := readJUnit(t, out)
	type testcase struct{ Class, Name, FailureType, FailureMessage string }
	type suite struct {
		Name, Out string
		Cases     []testcase
	}
	var got []suite
	for _, s := range doc.Suites {
		gs := suite{Name: *s.Name, Out: strings.Join(s.SystemOut, "")}
		for _, c := range s.Cases {
			tc := testcase{Class: *c.Classname, Name: *c.Name}
			if len(c.Failures) == 1 {
				tc.FailureType, tc.FailureMessage = *c.Failures[0].Type, *c.Failures[0].Message
				if want := "missing.md:5:1: error packet/missing-section: " + tc.FailureMessage + "\n" + helpURL(tc.FailureType); c.Failures[0].Text != want {
					t.Errorf("failure text %q, want %q", c.Failures[0].Text, want)
				}
			}
			gs.Cases = append(gs.Cases, tc)
		}
		got = append(got, gs)
	}
	want := []suite{
		{"marker.md", "marker.md:1:1: warning packet/thin-what-i-just-did: \"What I Just Did\" is thin for a boundary handoff (0 identifiers, 6 words): describe the work in at least 50 words with at least three concrete identifiers (requirement and task ids, commits, file:/// links)\n" +
			"marker.md:5:1: warning packet/verdict-marker-position: the verdict marker must be the last line of the packet, after \"## What I Need From You\": move it there\n" +
			"marker.md:7:1: hint packet/heading-level: \"Why I Stopped\" is a level-3 heading; packets write section headings as \"## Why I Stopped\"\n" +
			"marker.md:7:1: warning packet/unnamed-boundary: \"Why I Stopped\" does not name the tasks boundary (named by its verdict marker): say that the work stopped at it\n" +
			"marker.md:23:1: warning packet/unactionable-request: \"What I Need From You\" lacks a file:/// link to what to inspect, the verdict wanted (approve, reject, confirm, sign off …): name the boundary, link what to inspect and ask for an explicit verdict\n",
			[]testcase{{"marker.md", "no errors", "", ""}}},
		{"missing.md", "missing.md:9:1: hint packet/heading-level: \"What Happens Next\" is a level-3 heading; packets write section headings as \"## What Happens Next\"\n",
			[]testcase{{"missing.md", "packet/missing-section (5:1)", "packet/missing-section", "this packet has no \"Why I Stopped\" section: add it before \"## What Needs Your Review\""}}},
		{"clean.md", "", []testcase{{"clean.md", "no errors", "", ""}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("suites (-want +got):\n%s", diff)
	}
	if doc.Name == nil || *doc.Name != "baton" {
		t.Errorf("testsuites name %v, want baton", doc.Name)
	}
}

// TestJUnitEdgeCases: no files is an empty testsuites; two errors of one
// rule at one position get distinct names; control characters, which XML
// cannot carry, do not break the document.
func TestJUnitEdgeCases(t *testing.T) {
	var b bytes.Buffer
	if err := writeAll(&junitFormatter{w: &b}, nil); err != nil {
		t.Fatal(err)
	}
	if doc := readJUnit(t, b.String()); len(doc.Suites) != 0 {
		t.Errorf("no files gave %d suites", len(doc.Suites))
	}

	doc := analysis.Parse("x.md", "text\n")
	r := &fileResult{name: "a\x01b.md", doc: doc, findings: []analysis.Finding{
		{Rule: "packet/x", Severity: analysis.Error, Span: analysis.Span{Start: 0, End: 4}, Message: "one \x1b[31m<red>&"},
		{Rule: "packet/x", Severity: analysis.Error, Span: analysis.Span{Start: 0, End: 4}, Message: "two"},
	}}
	b.Reset()
	if err := writeAll(&junitFormatter{w: &b}, []*fileResult{r}); err != nil {
		t.Fatal(err)
	}
	got := readJUnit(t, b.String())
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
