package main

import (
	"context"
	"math"
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
		deadline := time.Now().Add(10 * time.Second)
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

// TestBatchMemory: check sets a soft heap limit, raised while a document
// is analysed by room for it and lowered again after, and leaves it alone
// when GOMEMLIMIT is set.
func TestBatchMemory(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer func() {
		batchMemory("off")
		debug.SetMemoryLimit(old)
	}()
	batchMemory("")
	base := debug.SetMemoryLimit(-1)
	if base < baseHeapLimit || base > baseHeapLimit+1<<30 {
		t.Fatalf("limit %d, want %d and half the live heap", base, baseHeapLimit)
	}
	releaseBig := admitDocument(16 << 20)
	releaseSmall := admitDocument(100)
	inFlight := debug.SetMemoryLimit(-1)
	releaseBig()
	releaseSmall()
	after := debug.SetMemoryLimit(-1)
	// The live heap may change between the reads, by a collection.
	if room, want := inFlight-after, int64((16<<20+100)*heapPerByte); room < want-8<<20 || room > want+8<<20 {
		t.Errorf("two documents in flight made %d bytes of room, want about %d", room, want)
	}
	if after > base+8<<20 {
		t.Errorf("after both documents, limit %d, want about %d", after, base)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	batchMemory("64MiB")
	admitDocument(16 << 20)()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set, limit %d, want it left alone", got)
	}
}
