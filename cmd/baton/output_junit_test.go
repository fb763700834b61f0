package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/report/reporttest"
)

// TestJUnit checks --format junit: one testsuite a file, an error finding a
// failed testcase (class: the file; name: the rule and position), a file
// without errors one passing testcase, and its other findings in the
// suite's system-out.
func TestJUnit(t *testing.T) {
	out, code := checkIn(t, everyShape, "", "--format", "junit", "marker.md", "missing.md", "clean.md")
	if code != exitFindings {
		t.Errorf("exit status %d, want %d", code, exitFindings)
	}
	doc := reporttest.ReadJUnit(t, out)
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
				if want := "missing.md:5:1: error packet/missing-section: " + tc.FailureMessage + "\n" + "https://github.com/baton-md/baton/blob/main/docs/rules.md#" + analysis.Anchor(tc.FailureType); c.Failures[0].Text != want {
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
