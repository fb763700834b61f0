package handoff_test

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysistest"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
	"github.com/rogpeppe/go-internal/txtar"
)

// ledgerFixture is the ledger.json file of a ledger fixture: what a fake
// resolver returns for the document's session.
type ledgerFixture struct {
	Cwd    string                        `json:"cwd"`
	Paths  map[string][]session.Evidence `json:"paths"`
	Board  []session.Decision            `json:"board"`
	Err    string                        `json:"err"`    // the lookup fails with this error
	Looked []string                      `json:"looked"` // where the resolver looked
}

func (f *ledgerFixture) lookup(id string) handoff.Lookup {
	if f.Err != "" {
		return handoff.Lookup{Err: errors.New(f.Err), Looked: f.Looked}
	}
	return handoff.Lookup{Ledger: &session.Ledger{SessionID: id, Cwd: f.Cwd, Paths: f.Paths, Board: f.Board}, Looked: f.Looked}
}

// TestLedgerRules runs the fixtures under testdata/ledger with a resolver
// that returns the fixture's ledger. Each holds, beside input.md and want
// (checked by TestRules, without a resolver):
//
//	-- ledger.json --      the ledger (see ledgerFixture)
//	-- want-ledger --      every finding expected with the resolver
//	-- fixed-ledger.md --  optional: the document after the first fix of every finding
func TestLedgerRules(t *testing.T) {
	reg, err := analysis.NewRegistry(handoff.Analyzer)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "ledger", "*.txtar"))
	if len(files) == 0 {
		t.Fatal("no ledger fixtures")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			fs := map[string]string{}
			for _, f := range ar.Files {
				fs[f.Name] = string(f.Data)
			}
			var lf ledgerFixture
			if err := json.Unmarshal([]byte(fs["ledger.json"]), &lf); err != nil {
				t.Fatalf("ledger.json: %v", err)
			}
			input := fs["input.md"]
			doc := markdown.Parse("input.md", input)
			calls := 0
			env := analysis.Env{handoff.EnvLedger: handoff.Resolver(func(id string) handoff.Lookup {
				calls++
				m := handoff.Parse(doc)
				if id != m.SessionID {
					t.Errorf("resolver called with %q, the document names %q", id, m.SessionID)
				}
				return lf.lookup(id)
			})}
			res := reg.AnalyzeEnv(doc, nil, env)
			if calls > 1 {
				t.Errorf("resolver called %d times", calls)
			}
			m, _ := res.Model(handoff.Analyzer).(*handoff.Model)
			if m == nil || (calls == 1) != (m.Lookup != nil) {
				t.Errorf("model's Lookup = %v after %d resolver calls", m, calls)
			}
			analysistest.Compare(t, doc, res.Findings, fs["want-ledger"])
			if fixed, ok := fs["fixed-ledger.md"]; ok {
				analysistest.CompareFixed(t, input, res.Findings, fixed)
			}
		})
	}
}
