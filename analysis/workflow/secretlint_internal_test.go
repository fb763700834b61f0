package workflow

import (
	"strings"
	"testing"
)

// TestPresetLiterals: every preset rule's patterns compile, and its
// literals are where its pattern can start: a pattern with a literal
// prefix lists it (or literals that each start with it), and a rule
// without literals has a pattern with none (it runs where a gate word is).
func TestPresetLiterals(t *testing.T) {
	for _, r := range presetRules().rules {
		p, _ := r.re.Re().LiteralPrefix()
		switch {
		case r.lits == nil && p != "":
			t.Errorf("%s %s: the pattern starts with %q, but the rule lists no literal", r.id, r.re, p)
		case p != "" && len(r.lits) == 1 && r.lits[0] != p:
			t.Errorf("%s %s: literal %q, the pattern's prefix %q", r.id, r.re, r.lits[0], p)
		case p != "" && len(r.lits) > 1:
			for _, l := range r.lits {
				if !strings.HasPrefix(l, p) {
					t.Errorf("%s %s: literal %q does not start with the pattern's prefix %q", r.id, r.re, l, p)
				}
			}
		}
		if r.lits == nil && len(r.gate) == 0 {
			t.Errorf("%s %s: neither literals nor gate words: it never runs", r.id, r.re)
		}
		if r.anchored != nil {
			r.anchored.Re()
		}
	}
}
