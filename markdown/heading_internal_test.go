package markdown

import (
	"strings"
	"testing"
)

// FuzzSingleSpaced: where singleSpaced lets NormalizeHeading skip splitting
// a heading into fields and joining them, the split and the join give the
// heading back unchanged.
func FuzzSingleSpaced(f *testing.F) {
	for _, s := range []string{"What I Just Did", "Why  I Stopped", "What\u00a0Happens Next", "a\tb", "ÉTAT", "", "x\u0085y", " a", "a "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		s = strings.TrimSpace(s) // as NormalizeHeading asks it
		if singleSpaced(s) && strings.Join(strings.Fields(s), " ") != s {
			t.Errorf("singleSpaced(%q), and its fields joined are %q", s, strings.Join(strings.Fields(s), " "))
		}
	})
}
