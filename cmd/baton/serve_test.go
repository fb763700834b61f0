package main

import (
	"context"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

var sink [][]byte

// TestReturnMemoryWhenIdle: after a burst of allocation, once the process
// has been idle for a period, the heap it freed is returned to the system,
// also the objects that had finalizers (which outlive the collection that
// finds them unreachable).
func TestReturnMemoryWhenIdle(t *testing.T) {
	for _, finalized := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		go returnMemoryWhenIdle(ctx, 20*time.Millisecond)
		time.Sleep(60 * time.Millisecond) // its first look
		for range 64 {
			b := make([]byte, 1<<20) // 64 MB, then garbage
			if finalized {
				runtime.SetFinalizer(&b[0], func(*byte) {})
			}
			sink = append(sink, b)
		}
		sink = nil
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		ok := false
		deadline := time.Now().Add(30 * time.Second) // a loaded machine runs the finalizers late
		for !ok && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			ok = ms.HeapInuse < 32<<20 && ms.HeapReleased > before.HeapReleased+32<<20
		}
		cancel()
		if !ok {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			t.Fatalf("finalizers %v: heap in use %d MB, released %d MB (was %d MB): the freed heap was not returned", finalized, ms.HeapInuse>>20, ms.HeapReleased>>20, before.HeapReleased>>20)
		}
	}
}

// TestBatchGC: check collects at its batch pace, a slower one without the
// heap budget (GOMEMLIMIT set), and as GOGC says when it is set.
func TestBatchGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	for _, c := range []struct {
		gogc, gomemlimit string
		want             int
	}{
		{"", "", batchGCPercent},
		{"", "200MiB", unbudgetedGCPercent},
		{"50", "", 100},
		{"50", "200MiB", 100},
	} {
		batchGC(c.gogc, c.gomemlimit)
		if got := debug.SetGCPercent(100); got != c.want {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: GC percent %d, want %d", c.gogc, c.gomemlimit, got, c.want)
		}
	}
	if batchGCPercent <= unbudgetedGCPercent {
		t.Errorf("the budgeted pace (%d) should collect less often than the unbudgeted (%d)", batchGCPercent, unbudgetedGCPercent)
	}
}
