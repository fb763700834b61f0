// Package heapbudget paces the Go collector of a process that analyses
// documents: a soft memory limit (runtime/debug.SetMemoryLimit) of a base,
// plus half the heap the last collection found live, plus room for the
// documents being analysed at the moment. `baton check`, the stop hooks
// and `baton mcp` all use it, so that one large document costs about what
// its analysis holds rather than what the collector's default pace lets
// the heap grow to (docs/performance.md: a 16 MB document of stop packets
// holds about 6.5 bytes a byte at its peak: its text, goldmark's tree and
// the findings).
//
// A GOMEMLIMIT in the environment wins: then nothing is set.
package heapbudget

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

const (
	// Base is the limit with nothing in flight: what the process needs
	// beside the documents (its tables, caches, the collector's working
	// room). 28 MiB since the rules' patterns and tables are made when
	// first used: the generated corpus peaked at 45–47 MiB with 32, at
	// 41–43 with 28 for 2.5% more CPU (docs/performance.md). 26 MiB since
	// baton check's workers run further ahead of the report, so that a
	// long document is analysed beside others: 42.2 MiB in the median of
	// 41 runs (43.7 with 28), the same wall time.
	Base = 26 << 20
	// PerByte is the room a document gets per byte of its text while it is
	// analysed.
	PerByte = 5
)

var state struct {
	mu       sync.Mutex
	on       bool
	inFlight int64
	live     [1]metrics.Sample
}

// Enable sets the soft limit, unless GOMEMLIMIT is set.
func Enable() { enable(os.Getenv("GOMEMLIMIT")) }

func enable(gomemlimit string) {
	state.mu.Lock()
	defer state.mu.Unlock()
	state.on = gomemlimit == ""
	state.inFlight = 0
	state.live[0].Name = "/gc/heap/live:bytes"
	if state.on {
		set()
	}
}

// set sets the limit for the documents in flight and the heap live now;
// state.mu is held.
func set() {
	metrics.Read(state.live[:])
	var live int64
	if v := state.live[0].Value; v.Kind() == metrics.KindUint64 {
		live = int64(min(v.Uint64(), 1<<40))
	}
	debug.SetMemoryLimit(Base + live/2 + state.inFlight*PerByte)
}

// Admit makes room under the soft limit for a document of n bytes while
// it is analysed; the function it returns gives the room back. Without
// Enable it does nothing.
func Admit(n int) (release func()) {
	state.mu.Lock()
	defer state.mu.Unlock()
	if !state.on {
		return func() {}
	}
	state.inFlight += int64(n)
	set()
	return func() {
		state.mu.Lock()
		defer state.mu.Unlock()
		if state.on {
			state.inFlight -= int64(n)
			set()
		}
	}
}
