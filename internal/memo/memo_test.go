package memo

import (
	"sync"
	"sync/atomic"
	"testing"
)

// Each key is computed once, however many callers ask it at once; each
// caller gets its own key's value.
func TestGetComputesEachKeyOnce(t *testing.T) {
	var m Map[int, int]
	var runs [8]atomic.Int64
	var wg sync.WaitGroup
	for range 32 {
		for k := range 8 {
			wg.Go(func() {
				if got := m.Get(k, func() int { runs[k].Add(1); return k * k }); got != k*k {
					t.Errorf("Get(%d) = %d, want %d", k, got, k*k)
				}
			})
		}
	}
	wg.Wait()
	for k := range runs {
		if n := runs[k].Load(); n != 1 {
			t.Errorf("key %d computed %d times, want once", k, n)
		}
	}
}

// A key computing does not hold up a caller of another key.
func TestGetDoesNotHoldOtherKeys(t *testing.T) {
	var m Map[string, string]
	started, release := make(chan struct{}), make(chan struct{})
	go m.Get("slow", func() string { close(started); <-release; return "slow" })
	<-started
	if got := m.Get("fast", func() string { return "fast" }); got != "fast" {
		t.Errorf("Get(fast) = %q", got)
	}
	close(release)
	if got := m.Get("slow", func() string { t.Error("slow computed twice"); return "" }); got != "slow" {
		t.Errorf("Get(slow) = %q", got)
	}
}

// Past Max, a new key is computed for each caller and not kept; the keys
// kept before it stay.
func TestGetPastMax(t *testing.T) {
	m := Map[int, int]{Max: 2}
	runs := 0
	get := func(k int) int { return m.Get(k, func() int { runs++; return k }) }
	get(1)
	get(2)
	get(3)
	get(3)
	get(1)
	if runs != 4 {
		t.Errorf("%d computations, want 4 (1 and 2 once each, 3 past the bound twice)", runs)
	}
}
