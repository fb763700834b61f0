package heapbudget

import (
	"math"
	"runtime/debug"
	"testing"
)

// The soft limit is set, raised while a document is analysed by room for
// it and lowered again after, and left alone when GOMEMLIMIT is set.
func TestAdmit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer func() {
		enable("off")
		debug.SetMemoryLimit(old)
	}()
	enable("")
	base := debug.SetMemoryLimit(-1)
	if base < Base || base > Base+1<<30 {
		t.Fatalf("limit %d, want %d and half the live heap", base, Base)
	}
	releaseBig := Admit(16 << 20)
	releaseSmall := Admit(100)
	inFlight := debug.SetMemoryLimit(-1)
	releaseBig()
	releaseSmall()
	after := debug.SetMemoryLimit(-1)
	// The live heap may change between the reads, by a collection.
	if room, want := inFlight-after, int64((16<<20+100)*PerByte); room < want-8<<20 || room > want+8<<20 {
		t.Errorf("two documents in flight made %d bytes of room, want about %d", room, want)
	}
	if after > base+8<<20 {
		t.Errorf("after both documents, limit %d, want about %d", after, base)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	enable("64MiB")
	Admit(16 << 20)()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set, limit %d, want it left alone", got)
	}
}
