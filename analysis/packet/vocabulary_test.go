package packet_test

import (
	"slices"
	"testing"

	"github.com/baton-md/baton/analysis/packet"
)

// TestVocabularyHoldsSpecrews: every word specrew's validator takes as the
// user's action, and every placeholder it takes as asking for nothing, is
// in baton's lists (extensions/specrew-speckit/validators/
// handoff-governance-validator.ps1 at acbb4366: Test-HasEmptyUserActionSection
// and $placeholderUserActionPhrases). The rule docs say where baton goes further.
func TestVocabularyHoldsSpecrews(t *testing.T) {
	for _, c := range []struct {
		list string
		want []string
	}{
		{packet.ListRequest, []string{"review", "approve", "confirm", "run", "provide", "reply", "authorize", "sign off", "restart", "test"}},
		{packet.ListPlaceholder, []string{"nothing yet", "no action needed", "no action required", "nothing to do", "no further action needed"}},
		// What a conditional waits on: specrew counts restart as the user's action.
		{packet.ListResponseWords, []string{"restart"}},
	} {
		for _, w := range c.want {
			if !slices.Contains(packet.DefaultPhrases[c.list], w) {
				t.Errorf("list %q lacks %q, which specrew's validator counts", c.list, w)
			}
		}
	}
}
