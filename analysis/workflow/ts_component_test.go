package workflow_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/baton-md/baton/analysis/workflow"
)

// TypeScript component modules are held to what the engine did with each
// (testdata/tscomponents.json, recorded by running the engine's loading
// and invocation of a function component under Node): baton reports an
// invocation of a component the engine refused, where the module's text
// decides it, and never one the engine ran.
func TestTSComponentsAreTheEngines(t *testing.T) {
	data, err := os.ReadFile("testdata/tscomponents.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Modules []struct {
			Name, Module string
			Files        map[string]string
			Engine       struct{ Stage, Error string }
			Baton, Says  string
		}
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	reported := 0
	for _, m := range rec.Modules {
		t.Run(m.Name, func(t *testing.T) {
			files := map[string]string{"components/" + m.Name + ".ts": m.Module}
			for p, text := range m.Files {
				files[p] = text
			}
			res := analyzeAt(t, files, "doc.md", "<"+m.Name+" as=\"x\" />\n")
			var got []string
			for _, f := range res.Findings {
				if f.Rule == workflow.RuleTSComponent.ID {
					got = append(got, f.Message)
				}
			}
			switch {
			case m.Engine.Stage == "" && len(got) > 0:
				t.Errorf("the engine runs it, baton says:\n%s", strings.Join(got, "\n"))
			case m.Baton == "silent" && len(got) > 0:
				t.Errorf("baton should not judge it (the engine: %s), but says:\n%s", m.Engine.Error, strings.Join(got, "\n"))
			case m.Baton == "reports" && len(got) == 0:
				t.Errorf("the engine refuses it (%s), baton says nothing", m.Engine.Error)
			case m.Baton != "reports" && m.Baton != "silent":
				t.Errorf("baton: %q, want reports or silent", m.Baton)
			}
			if m.Says != "" {
				if !strings.Contains(m.Engine.Error, m.Says) {
					t.Errorf("says %q is not the engine's: %s", m.Says, m.Engine.Error)
				}
				found := false
				for _, g := range got {
					found = found || strings.Contains(g, m.Says)
				}
				if !found && len(got) > 0 {
					t.Errorf("baton does not say %q:\n%s", m.Says, strings.Join(got, "\n"))
				}
			}
			if len(got) > 0 {
				reported++
			}
		})
	}
	if reported < 30 {
		t.Errorf("only %d modules reported: the list has lost its refusals", reported)
	}
}
