package server

import (
	"fmt"
	"slices"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"go.lsp.dev/uri"
)

// TestKeptResults: the analyses kept are those of the keptResults documents
// used last, the latest first; using a kept one moves it to the front, a new
// one evicts the analysis of the one used longest ago (its kind stays), and
// a closed document leaves the list.
func TestKeptResults(t *testing.T) {
	s := &Server{docs: map[uri.URI]*document{}}
	u := func(i int) uri.URI { return uri.URI(fmt.Sprintf("file:///d%d.md", i)) }
	use := func(i int) {
		d := s.docs[u(i)]
		if d == nil {
			d = &document{}
			s.docs[u(i)] = d
		}
		d.result, d.kind = &analysis.Result{}, markdown.KindWorkflow
		s.keepLocked(u(i))
	}
	for i := range keptResults {
		use(i)
	}
	use(0) // the oldest, used again: nothing is evicted
	if len(s.recent) != keptResults || s.recent[0] != u(0) || s.recent[keptResults-1] != u(1) {
		t.Fatalf("recent = %v", s.recent)
	}
	use(keptResults) // d1 is now the one used longest ago
	if s.docs[u(1)].result != nil {
		t.Error("the analysis used longest ago is still kept")
	}
	if s.docs[u(1)].kind != markdown.KindWorkflow {
		t.Error("an evicted document lost its kind")
	}
	for _, i := range []int{0, 2, keptResults} {
		if s.docs[u(i)].result == nil {
			t.Errorf("d%d lost its analysis", i)
		}
	}
	if len(s.recent) != keptResults || slices.Contains(s.recent, u(1)) {
		t.Fatalf("recent = %v", s.recent)
	}
	s.forgetLocked(u(2))
	if len(s.recent) != keptResults-1 || slices.Contains(s.recent, u(2)) {
		t.Errorf("after closing d2, recent = %v", s.recent)
	}
	s.forgetLocked(u(1)) // not kept: nothing changes
	if len(s.recent) != keptResults-1 {
		t.Errorf("forgetting an evicted document changed recent: %v", s.recent)
	}
}
