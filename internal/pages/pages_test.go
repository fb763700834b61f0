package pages

import (
	"testing"
	"unsafe"
)

type node struct {
	next *node
	name string
	n    int
}

// Touch leaves a new slab as it was: zero, pointers nil.
func TestTouchLeavesZero(t *testing.T) {
	for _, n := range []int{0, 1, 7, 100, 1000, 5000} {
		s := make([]node, n)
		Touch(s)
		for i := range s {
			if s[i] != (node{}) {
				t.Fatalf("len %d: element %d is %+v after Touch, want zero", n, i, s[i])
			}
		}
	}
}

// Touch writes a byte on every page the slab covers, whatever its
// alignment, and none outside it.
func TestTouchEveryPage(t *testing.T) {
	const elem = int(unsafe.Sizeof(node{}))
	var written []int // offsets into the slab
	for _, n := range []int{1, 2, Size / elem, Size/elem + 1, 3*Size/elem + 5} {
		for _, skip := range []int{0, 1, 17, Size/elem - 1} {
			backing := make([]node, n+skip)
			s := backing[skip:]
			written = written[:0]
			for off := range writes(n * elem) {
				written = append(written, off)
			}
			base := uintptr(unsafe.Pointer(&s[0]))
			size := n * elem
			first, last := base/Size, (base+uintptr(size)-1)/Size
			hit := map[uintptr]bool{}
			for _, off := range written {
				if off < 0 || off >= size {
					t.Fatalf("n %d skip %d: wrote at %d, outside the slab's %d bytes", n, skip, off, size)
				}
				hit[(base+uintptr(off))/Size] = true
			}
			for p := first; p <= last; p++ {
				if !hit[p] {
					t.Errorf("n %d skip %d: page %d of %d..%d not written", n, skip, p, first, last)
				}
			}
		}
	}
}
