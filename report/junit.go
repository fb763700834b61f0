package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// The JUnit XML of --format junit, in the shape of the JUnit schema
// Jenkins' xUnit plugin publishes (junit-10.xsd), which GitLab's unit test
// reports read: testcase's classname is the suite GitLab shows, its name
// must be unique, and its failure's content is what GitLab prints. As in
// markdownlint-cli2's JUnit formatter, an error finding is a failed test,
// since errors alone fail the run; the other findings, which do not fail
// it, are listed in the file's system-out.
type (
	junitSuite struct {
		XMLName   xml.Name    `xml:"testsuite"`
		Name      string      `xml:"name,attr"`
		Tests     int         `xml:"tests,attr"`
		Failures  int         `xml:"failures,attr"`
		Errors    int         `xml:"errors,attr"`
		Skipped   int         `xml:"skipped,attr"`
		Time      string      `xml:"time,attr"`
		Cases     []junitCase `xml:"testcase"`
		SystemOut string      `xml:"system-out,omitempty"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Time      string        `xml:"time,attr"`
		Failure   *junitFailure `xml:"failure"`
	}
	junitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

// junitFormatter writes one testsuite a file, inside one testsuites for
// the run. It keeps nothing between files.
type junitFormatter struct {
	w       io.Writer
	started bool
}

const junitOpening = xml.Header + `<testsuites name="baton">`

func (j *junitFormatter) File(r *File) error {
	s := junitSuite{Name: r.Name, Time: "0"}
	var others []string
	names := map[string]int{}
	for _, f := range r.Findings {
		if f.Severity != analysis.Error {
			others = append(others, textLine(r, f, false))
			continue
		}
		p := r.Doc.Lines.Position(f.Span.Start, markdown.UTF8)
		name := fmt.Sprintf("%s (%d:%d)", f.Rule, p.Line+1, p.Character+1)
		if names[name]++; names[name] > 1 {
			name = fmt.Sprintf("%s #%d", name, names[name]) // GitLab keeps only the first of a name
		}
		s.Cases = append(s.Cases, junitCase{
			Name: name, Classname: r.Name, Time: "0",
			Failure: &junitFailure{Message: oneLine(f.Message), Type: f.Rule, Text: textLine(r, f, false) + "\n" + helpURL(f.Rule)},
		})
		s.Failures++
	}
	if s.Failures == 0 {
		s.Cases = append(s.Cases, junitCase{Name: "no errors", Classname: r.Name, Time: "0"})
	}
	s.Tests = len(s.Cases)
	if len(others) > 0 {
		s.SystemOut = strings.Join(others, "\n") + "\n"
	}
	b, err := xml.MarshalIndent(s, "  ", "  ")
	if err != nil {
		return err
	}
	open := ""
	if !j.started {
		open = junitOpening
		j.started = true
	}
	_, err = io.WriteString(j.w, open+"\n"+string(b)) // MarshalIndent prefixes the first line too
	return err
}

func (j *junitFormatter) End() error {
	open := ""
	if !j.started {
		open = junitOpening
	}
	_, err := io.WriteString(j.w, open+"\n</testsuites>\n")
	return err
}
