package workflow_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/baton-md/baton/analysis/workflow"
)

// engineRecord is a file of documents and what the engine did with each,
// recorded by running its own code (each file's about says how).
type engineRecord struct {
	About string
	Docs  []struct {
		Why, Doc string
		Engine   struct {
			Refused bool
			Error   string
		}
		Baton, Says string
	}
}

// holdToEngine analyzes each document of the record and holds what the
// rules say of it to the engine's verdict: never a finding where the
// engine runs the document, a finding where the record says baton reports
// it, saying what the engine says, and none where it says baton is silent.
func holdToEngine(t *testing.T, file string, minReported int, rules ...string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rec engineRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	reported := 0
	for _, d := range rec.Docs {
		t.Run(d.Why, func(t *testing.T) {
			res := analyzeAt(t, nil, "doc.md", d.Doc)
			var got []string
			for _, f := range res.Findings {
				for _, r := range rules {
					if f.Rule == r {
						got = append(got, f.Message)
					}
				}
			}
			switch {
			case !d.Engine.Refused && len(got) > 0:
				t.Errorf("the engine runs it, baton says:\n%s", strings.Join(got, "\n"))
			case d.Baton == "silent" && len(got) > 0:
				t.Errorf("baton should not judge it (the engine: %s), but says:\n%s", d.Engine.Error, strings.Join(got, "\n"))
			case d.Baton == "reports" && len(got) == 0:
				t.Errorf("the engine refuses it (%s), baton says nothing", d.Engine.Error)
			case d.Baton == "reports" && !d.Engine.Refused:
				t.Errorf("recorded as reported, but the engine runs it")
			case d.Baton != "reports" && d.Baton != "silent":
				t.Errorf("baton: %q, want reports or silent", d.Baton)
			}
			if d.Says != "" {
				if !strings.Contains(d.Engine.Error, d.Says) {
					t.Errorf("says %q is not the engine's: %s", d.Says, d.Engine.Error)
				}
				found := false
				for _, g := range got {
					found = found || strings.Contains(g, d.Says)
				}
				if !found && len(got) > 0 {
					t.Errorf("baton does not say %q:\n%s", d.Says, strings.Join(got, "\n"))
				}
			}
			if len(got) > 0 {
				reported++
			}
		})
	}
	if reported < minReported {
		t.Errorf("only %d documents reported: the record has lost its refusals", reported)
	}
}

// Front matter is held to what the engine's loader did with it
// (testdata/frontmatter.json): the required list, a full schema's
// properties, $async, a front matter language gray-matter has no engine
// for, and tagged YAML values.
func TestFrontMatterIsTheEngines(t *testing.T) {
	holdToEngine(t, "testdata/frontmatter.json", 65, workflow.RulePropsDeclaration.ID, workflow.RuleReturnsDeclaration.ID,
		workflow.RuleFrontMatterJSON.ID, workflow.RuleSyntax.ID)
}

// A literal schema passed to <Parse>, <SafeParse>, <Elicit> or <WebForm>
// is held to what the component's schema step did with it
// (testdata/schemaprops.json).
func TestSchemaPropsAreTheEngines(t *testing.T) {
	holdToEngine(t, "testdata/schemaprops.json", 70, workflow.RuleSchemaProp.ID)
}
