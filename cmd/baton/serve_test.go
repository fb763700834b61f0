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

// TestBatchGC: check collects at its batch pace, unless GOGC says
// otherwise.
func TestBatchGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	batchGC("")
	if got := debug.SetGCPercent(100); got != batchGCPercent {
		t.Errorf("GC percent %d, want %d", got, batchGCPercent)
	}
	batchGC("50")
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set, GC percent %d, want it left alone (100)", got)
	}
}
