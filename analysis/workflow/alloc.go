package workflow

import "github.com/baton-md/baton/internal/pages"

// A document has hundreds of small nodes (tags, attributes, placeholders,
// references, bindings); allocating each on its own made allocation and
// the garbage collector a third of the analysis. These hand them out from
// chunks instead: one allocation per chunk, the chunks growing with the
// document so a small one does not pay for a large chunk. Everything taken
// from a chunk belongs to the same document, so a chunk lives exactly as
// long as the nodes in it.

const (
	minChunk = 8
	maxChunk = 512
)

// slab hands out zeroed values of T, one at a time.
type slab[T any] struct {
	free []T
	used int
}

// new returns a zeroed T for the node at offset pos of a text of end
// bytes. A new chunk holds as many as the text's density so far predicts
// for the rest of it, so that chunks neither multiply nor sit half empty.
func (s *slab[T]) new(pos, end int) *T {
	if len(s.free) == 0 {
		s.free = make([]T, chunkSize(s.used, pos, end))
		pages.Touch(s.free) // a node is stored whole, pointers first: see package pages
	}
	s.used++
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// reserve makes the next chunk hold n values, when the text tells how many
// there will be.
func (s *slab[T]) reserve(n int) {
	if len(s.free) == 0 && n > 0 {
		s.free = make([]T, n)
		pages.Touch(s.free)
	}
}

// chunkSize predicts how many more of a node are needed after used of them
// in the first pos bytes of end.
func chunkSize(used, pos, end int) int {
	if used == 0 || pos <= 0 {
		return minChunk
	}
	return min(max(used*(end-pos)/pos+minChunk/2, minChunk), maxChunk)
}

// runs hands out slices of T copied from a scratch slice, capped at their
// length so that an append to one never writes into the next.
type runs[T any] struct {
	buf  []T
	next int
}

func (r *runs[T]) take(xs []T) []T {
	if len(xs) > cap(r.buf)-len(r.buf) {
		r.next = min(max(r.next*2, minChunk), maxChunk)
		r.buf = make([]T, 0, max(len(xs), r.next))
	}
	start := len(r.buf)
	r.buf = append(r.buf, xs...)
	return r.buf[start:len(r.buf):len(r.buf)]
}

// take1 is take of the one value x.
func (r *runs[T]) take1(x T) []T {
	if len(r.buf) == cap(r.buf) {
		r.next = min(max(r.next*2, minChunk), maxChunk)
		r.buf = make([]T, 0, r.next)
	}
	r.buf = append(r.buf, x)
	n := len(r.buf)
	return r.buf[n-1 : n : n]
}

// recent remembers the values of the last few strings asked about, one per
// slot chosen from the string's length and end bytes: cheaper than a map,
// which hashes every byte, for the few names (tags, expressions) a
// document repeats at every stage. A string displaces the one in its slot.
type recent[V any] struct {
	keys [recentSlots]string
	vals [recentSlots]V
}

const recentSlots = 16

func recentSlot(s string) int {
	return (len(s) + int(s[0])*7 + int(s[len(s)/2])*5 + int(s[len(s)-1])*3) & (recentSlots - 1)
}

// get returns the value remembered for s, if s (not empty) is remembered.
func (r *recent[V]) get(s string) (v V, ok bool) {
	if s == "" {
		return v, false
	}
	i := recentSlot(s)
	if r.keys[i] != s {
		return v, false
	}
	return r.vals[i], true
}

// put remembers v for s; an empty s is not remembered.
func (r *recent[V]) put(s string, v V) {
	if s == "" {
		return
	}
	i := recentSlot(s)
	r.keys[i], r.vals[i] = s, v
}
