package stopintent

import (
	"slices"
	"testing"
)

// TestInputSet: an input set holds one input for each of InputNames, says
// which are set, yields them in InputNames' order, and ignores a name that
// is no input.
func TestInputSet(t *testing.T) {
	var s InputSet
	if _, ok := s.Lookup(InBlocked); ok || s.Len() != 0 {
		t.Fatal("an empty set has an input")
	}
	s.set(InLoopGuardTripped, Input{Value: True, Source: "flag"})
	s.set(InBoundaryPending, Input{Value: False, Source: "text"})
	s.set("NoSuchInput", Input{Value: True})
	if in, ok := s.Lookup(InLoopGuardTripped); !ok || in.Value != True || in.Source != "flag" {
		t.Errorf("LoopGuardTripped = %+v, %v", in, ok)
	}
	if got := s.Get(InBlocked); got != (Input{}) {
		t.Errorf("an unset input = %+v, want the zero Input", got)
	}
	var names []string
	for name := range s.All() {
		names = append(names, name)
	}
	if want := []string{InBoundaryPending, InLoopGuardTripped}; !slices.Equal(names, want) || s.Len() != 2 {
		t.Errorf("All yields %v (Len %d), want %v", names, s.Len(), want)
	}
}
