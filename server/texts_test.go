package server

import (
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// TestTextBlocks: a stored text equals the original; small texts are packed
// one after another into a shared block, a new block starts when one is
// full, and a large text keeps its own allocation. Safe for concurrent use.
func TestTextBlocks(t *testing.T) {
	var b textBlocks
	a := b.store(strings.Repeat("a", 1000))
	c := b.store(strings.Repeat("c", 2000))
	if a != strings.Repeat("a", 1000) || c != strings.Repeat("c", 2000) {
		t.Fatal("a stored text is not the text")
	}
	if uintptr(unsafe.Pointer(unsafe.StringData(c))) != uintptr(unsafe.Pointer(unsafe.StringData(a)))+1000 {
		t.Error("two small texts are not packed one after the other")
	}
	big := strings.Repeat("b", textMaxPacked+1)
	if got := b.store(big); unsafe.StringData(got) != unsafe.StringData(big) {
		t.Error("a large text was copied")
	}
	if b.store("") != "" {
		t.Error("the empty text")
	}
	// Fill the block: the next text starts a new one, and the old texts
	// are unchanged.
	for range textBlockSize / textMaxPacked {
		b.store(strings.Repeat("x", textMaxPacked))
	}
	if a != strings.Repeat("a", 1000) || c != strings.Repeat("c", 2000) {
		t.Fatal("filling the block changed a stored text")
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			want := strings.Repeat(string(rune('a'+i)), 3000+i)
			for range 100 {
				if got := b.store(want); got != want {
					t.Errorf("concurrent store: got %d bytes, want %d", len(got), len(want))
					return
				}
			}
		})
	}
	wg.Wait()
}
