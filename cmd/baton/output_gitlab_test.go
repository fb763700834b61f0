package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/baton-md/baton/report/reporttest"
)

func TestGitLab(t *testing.T) {
	out, code := checkIn(t, everyShape, "", "--format", "gitlab", "marker.md", "missing.md", "stop.md", "clean.md")
	if code != exitFindings {
		t.Errorf("exit status %d, want %d", code, exitFindings)
	}
	issues := reporttest.ReadGitLab(t, out)
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
