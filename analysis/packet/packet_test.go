package packet_test

import (
	"testing"

	"github.com/baton-md/baton/analysis/analysistest"
	"github.com/baton-md/baton/analysis/packet"
)

func TestRules(t *testing.T) {
	analysistest.Run(t, "testdata", packet.Analyzer)
}
