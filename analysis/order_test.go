package analysis_test

import (
	"testing"

	"github.com/baton-md/baton/analysis"
	"github.com/google/go-cmp/cmp"
)

func TestOutOfOrder(t *testing.T) {
	tests := []struct {
		keys []int
		want []analysis.Moved
	}{
		{[]int{0, 1, 2}, nil},
		{[]int{1, 0, 2}, []analysis.Moved{{I: 1, Before: 0, After: -1}}},   // 0 belongs before 1
		{[]int{0, 2, 3, 1}, []analysis.Moved{{I: 3, Before: 1, After: 0}}}, // 1 belongs before 2 (after 0)
		{[]int{2, 3, 0, 1, 4}, []analysis.Moved{{I: 2, Before: 0, After: -1}, {I: 3, Before: 0, After: -1}}},
		{[]int{0, 5, 1, 2}, []analysis.Moved{{I: 1, Before: -1, After: 3}}}, // 5 belongs after 2, the last
		{nil, nil},
	}
	for _, tt := range tests {
		if d := cmp.Diff(tt.want, analysis.OutOfOrder(tt.keys)); d != "" {
			t.Errorf("OutOfOrder(%v) (-want +got):\n%s", tt.keys, d)
		}
	}
}
