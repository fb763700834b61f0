package handoff_test

import (
	"testing"

	"github.com/baton-md/baton/analysistest"
	"github.com/baton-md/baton/handoff"
)

// TestRules runs every fixture under testdata without an environment: no
// resolver, so no ledger finding may appear (the ledger fixtures' want
// files say so too).
func TestRules(t *testing.T) {
	analysistest.Run(t, "testdata", handoff.Analyzer)
}
