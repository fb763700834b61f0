package main

import (
	"testing"

	"github.com/baton-md/baton/internal/lazyre"
)

// TestEveryPatternCompiles: the rules' patterns are compiled when first
// used (lazyre), so an invalid one would panic in the middle of a run, on
// the first document that reaches it. Every pattern the program holds is
// compiled here.
func TestEveryPatternCompiles(t *testing.T) {
	if n := lazyre.Count(); n < 150 {
		t.Errorf("only %d patterns made: a package's patterns are not lazyre's?", n)
	}
	if err := lazyre.CompileAll(); err != nil {
		t.Fatal(err)
	}
}
