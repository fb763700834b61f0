package governance_test

import (
	"os"
	"strings"
	"testing"

	"github.com/baton-md/baton/analysistest"
)

// TestInventoryNamesEveryRule keeps docs/conformance-specrew.md and the
// rules' Follows equal: each specrew check a rule follows has a row that
// names the rule, and each rule a row names exists.
func TestInventoryNamesEveryRule(t *testing.T) {
	data, err := os.ReadFile("../../../docs/conformance-specrew.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "| `") {
			rows = append(rows, line)
		}
	}
	reg := analysistest.Registry()
	for _, r := range reg.Rules() {
		for _, f := range r.Follows {
			check, ok := strings.CutPrefix(f, "specrew ")
			if !ok {
				continue
			}
			name, _, _ := strings.Cut(check, " ")
			found := false
			for _, row := range rows {
				if strings.Contains(row, "`"+name+"`") && strings.Contains(row, "`"+r.ID+"`") {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s follows specrew's %s, but no row of docs/conformance-specrew.md names both", r.ID, check)
			}
		}
	}
	for _, row := range rows {
		for _, part := range strings.Split(row, "`")[1:] {
			if id := strings.TrimSpace(part); strings.HasPrefix(id, "packet/") || strings.HasPrefix(id, "stopintent/") {
				if !strings.ContainsAny(id, " ") && reg.Rule(id) == nil {
					t.Errorf("docs/conformance-specrew.md names %s, which is no rule", id)
				}
			}
		}
	}
}
