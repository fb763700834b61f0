package workflow_test

import (
	"os"
	"strings"
	"testing"

	"github.com/baton-md/baton/analysis/workflow"
)

// TestConformanceDocNamesEveryRule keeps docs/conformance-xmd.md and the
// rules' Follows in step: a rule that follows a check of the engine's is
// in the table, beside the function that makes the check.
func TestConformanceDocNamesEveryRule(t *testing.T) {
	data, err := os.ReadFile("../../docs/conformance-xmd.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, r := range workflow.Rules {
		for _, f := range r.Follows {
			// "executable.md <file> <function> (…)"
			fields := strings.Fields(f)
			if len(fields) < 3 || fields[0] != "executable.md" {
				continue
			}
			fn := strings.TrimRight(fields[2], ",;")
			found := false
			for _, line := range strings.Split(doc, "\n") {
				if strings.HasPrefix(line, "|") && strings.Contains(line, r.ID) && strings.Contains(line, fn) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s follows %s, but no row of docs/conformance-xmd.md names both", r.ID, fn)
			}
		}
	}
}
