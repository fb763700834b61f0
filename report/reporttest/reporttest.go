// Package reporttest holds what the tests of package report and of
// cmd/baton share: documents with findings of every shape, and readers
// that hold the output of each machine format to what its schema asks
// (SARIF 2.1.0, JUnit XML, GitLab Code Quality). The formatters are tested
// in report, the whole `baton check` in cmd/baton; both read the same
// output the same way.
package reporttest

import (
	"encoding/json"
	"testing"
)

// Documents with findings of every shape: with safe and unsafe fixes,
// fixes of several edits, related locations, and none. MissingSection is a
// boundary packet (it has Discussion Prompts) missing Why I Stopped, an
// error; MarkerAndHeading's prompt has context and a default, so it has
// warnings and a hint only.
const (
	MarkerAndHeading = "## What I Just Did\n\nDrafted the plan.\n\n<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->\n\n### Why I Stopped\n\nBoundary: plan.\n\n## What Needs Your Review\n\nThe scope table in plan.md.\n\n## What Happens Next\n\nOn approval I derive the tasks.\n\n## Discussion Prompts\n\n1. Because the flag sets the default scope, is default-off acceptable? Recommended default: yes.\n\n## What I Need From You\n\nReply: approved for tasks / rejected for tasks.\n"
	MissingSection   = "## What I Just Did\n\nUpdated the plan.\n\n## What Needs Your Review\n\n- Approve the plan?\n\n### What Happens Next\n\nOn approval, I will start.\n\n## Discussion Prompts\n\n1. Because the plan sets the scope, should I start from it as written? Recommended default: yes.\n\n## What I Need From You\n\nReply \"approved\".\n"
	OutOfOrder       = "## What I Just Did\n\nReordered — the sections, café.\n\n## What Needs Your Review\n\nThe new order.\n\n## Why I Stopped\n\nTo show a section out of order.\n\n## What Happens Next\n\nNothing.\n\n## What I Need From You\n\nReply \"ok\".\n"
	NearMiss         = "Waiting for the CI run of task 4.\n\n<!--   SPECREW-STOP-INTENT:intermediate   -->\n"
	Clean            = "# Notes\n\nNothing to see.\n"
)

// MustJSON is v as JSON, for a test's message.
func MustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
