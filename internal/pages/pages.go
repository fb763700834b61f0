// Package pages touches the memory of a new slab of values, a page at a
// time, before it is used.
//
// Memory the runtime has fresh from the system (or has given back to it
// and taken again) is mapped by its first access: a read maps the zero
// page every process shares, and the first write after that faults again
// to give the page a copy of its own, and must flush the other CPUs' view
// of the page (an interrupt to each). A value's first use often reads
// before it writes: an append reads the slice it grows, and while the
// collector marks, every pointer stored reads the one it replaces. Touch
// makes the first access to each page a write, which maps it once.
package pages

import (
	"iter"
	"unsafe"
)

// Size is the smallest page size of the systems baton runs on; on a
// system of larger pages Touch writes some of them more than once.
const Size = 4096

// Touch writes a zero byte into each page s's elements cover. s must be
// new (its memory zero and seen by no other goroutine yet): a zero byte
// written over a zero byte changes nothing, pointer bits included.
func Touch[T any](s []T) {
	n := len(s) * int(unsafe.Sizeof(*new(T)))
	if n == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), n)
	for i := range writes(n) {
		b[i] = 0
	}
}

// writes are the offsets Touch writes in n bytes: one a page from the
// first, and the last (its page is not the one before it when the bytes
// start late in their first page).
func writes(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i += Size {
			if !yield(i) {
				return
			}
		}
		yield(n - 1)
	}
}
