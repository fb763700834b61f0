package reporttest

import (
	"encoding/xml"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The JUnit XML schema that Jenkins' xUnit plugin publishes (junit-10.xsd,
// jenkinsci/xunit-plugin, src/main/resources/org/jenkinsci/plugins/xunit/
// types/model/xsd/junit-10.xsd), as Go structs: each element with the
// attributes and children the schema allows it, those it requires as
// "req" in a comment. Anything else lands in Unknown and fails the test.
type (
	JUnitTestsuites struct {
		XMLName  xml.Name         `xml:"testsuites"`
		Name     *string          `xml:"name,attr"`
		Time     *string          `xml:"time,attr"`
		Tests    *string          `xml:"tests,attr"`
		Failures *string          `xml:"failures,attr"`
		Errors   *string          `xml:"errors,attr"`
		Suites   []JUnitTestsuite `xml:"testsuite"`
		Unknown  []xml.Attr       `xml:",any,attr"`
		Other    []JUnitElement   `xml:",any"`
	}
	JUnitTestsuite struct {
		Name      *string         `xml:"name,attr"`     // req
		Tests     *string         `xml:"tests,attr"`    // req
		Failures  *string         `xml:"failures,attr"` // req
		Errors    *string         `xml:"errors,attr"`   // req
		Group     *string         `xml:"group,attr"`
		Time      *string         `xml:"time,attr"` // SUREFIRE_TIME
		Skipped   *string         `xml:"skipped,attr"`
		Timestamp *string         `xml:"timestamp,attr"`
		Hostname  *string         `xml:"hostname,attr"`
		ID        *string         `xml:"id,attr"`
		Package   *string         `xml:"package,attr"`
		File      *string         `xml:"file,attr"`
		Log       *string         `xml:"log,attr"`
		URL       *string         `xml:"url,attr"`
		Cases     []JUnitTestcase `xml:"testcase"`
		SystemOut []string        `xml:"system-out"`
		SystemErr []string        `xml:"system-err"`
		Unknown   []xml.Attr      `xml:",any,attr"`
		Other     []JUnitElement  `xml:",any"`
	}
	JUnitTestcase struct {
		Name      *string        `xml:"name,attr"` // req
		Time      *string        `xml:"time,attr"`
		Classname *string        `xml:"classname,attr"`
		Group     *string        `xml:"group,attr"`
		Failures  []JUnitFailure `xml:"failure"`
		Errors    []JUnitFailure `xml:"error"`
		Skipped   []JUnitFailure `xml:"skipped"`
		SystemOut []string       `xml:"system-out"`
		SystemErr []string       `xml:"system-err"`
		Unknown   []xml.Attr     `xml:",any,attr"`
		Other     []JUnitElement `xml:",any"`
	}
	JUnitFailure struct {
		Type    *string        `xml:"type,attr"`
		Message *string        `xml:"message,attr"`
		Text    string         `xml:",chardata"`
		Unknown []xml.Attr     `xml:",any,attr"`
		Other   []JUnitElement `xml:",any"`
	}
	JUnitElement struct {
		XMLName xml.Name
	}
)

// surefireTime is the schema's SUREFIRE_TIME pattern.
var surefireTime = regexp.MustCompile(`^(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?$`)

// ReadJUnit parses a report and checks it against the schema's shape and
// GitLab's reading of it (a test's name unique within its class).
func ReadJUnit(t testing.TB, out string) JUnitTestsuites {
	t.Helper()
	if !strings.HasPrefix(out, xml.Header) {
		t.Errorf("no XML declaration: %q", out)
	}
	var doc JUnitTestsuites
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, out)
	}
	unknown := func(where string, attrs []xml.Attr, other []JUnitElement) {
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
