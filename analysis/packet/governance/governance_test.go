package governance_test

import (
	"testing"

	"github.com/baton-md/baton/analysis/analysistest"
	"github.com/baton-md/baton/analysis/packet/governance"
)

func TestRules(t *testing.T) {
	analysistest.Run(t, "testdata", governance.Analyzer)
}
