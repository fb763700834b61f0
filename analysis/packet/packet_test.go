package packet_test

import (
	"testing"

	"github.com/baton-md/baton/analysis/packet"
	"github.com/baton-md/baton/analysistest"
)

func TestRules(t *testing.T) {
	analysistest.Run(t, "testdata", packet.Analyzer)
}
