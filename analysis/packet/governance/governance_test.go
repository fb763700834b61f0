package governance_test

import (
	"testing"

	"github.com/baton-md/baton/analysis/packet/governance"
	"github.com/baton-md/baton/analysistest"
)

func TestRules(t *testing.T) {
	analysistest.Run(t, "testdata", governance.Analyzer)
}
