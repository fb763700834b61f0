package ascii

import (
	"strings"
	"testing"
)

func TestContainsFold(t *testing.T) {
	for _, c := range []struct {
		s, lower string
		want     bool
	}{
		{"SPECREW-VERDICT-BOUNDARY", "boundary", true},
		{"Stop_Intent", "top", true},
		{"boundar", "boundary", false},
		{"", "top", false},
		{"t0p", "top", false},
		{"bOuNdArY at the end", "boundary", true},
	} {
		if got := ContainsFold(c.s, c.lower); got != c.want {
			t.Errorf("ContainsFold(%q, %q) = %v, want %v", c.s, c.lower, got, c.want)
		}
		if got := ContainsFold([]byte(c.s), c.lower); got != c.want {
			t.Errorf("ContainsFold([]byte(%q), %q) = %v, want %v", c.s, c.lower, got, c.want)
		}
		// For letters the fold agrees with strings.Contains on lower-cased text.
		if want := strings.Contains(strings.ToLower(c.s), c.lower); want != c.want {
			t.Errorf("the case %q/%q is wrong itself", c.s, c.lower)
		}
	}
}
