package server

import (
	"sync"
	"unsafe"
)

// textBlocks keeps the texts of opened documents in shared blocks of
// textBlockSize bytes, each text exactly its length. The decoder gives each
// text an allocation of its own, rounded up to the allocator's size class
// and packed a few to a span: a 16.9 KB document took 18 KiB and left a
// part of its span unused, about a fifth more than the text, for every open
// document. A block lives as long as any text in it: an edit gives a
// document a new text of its own, so a block whose documents were all
// edited or closed is collected, and one an unedited document still holds
// keeps at most textBlockSize. Texts over textMaxPacked (large objects,
// rounded to pages only) keep their own allocation.
type textBlocks struct {
	mu  sync.Mutex
	cur []byte // the block being filled: only appended to, never changed
}

const (
	textBlockSize = 1 << 20
	textMaxPacked = 64 << 10
)

// store returns a string equal to s, in a block when s is small.
func (b *textBlocks) store(s string) string {
	if len(s) == 0 || len(s) > textMaxPacked {
		return s
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if cap(b.cur)-len(b.cur) < len(s) {
		b.cur = make([]byte, 0, textBlockSize)
	}
	start := len(b.cur)
	b.cur = append(b.cur, s...)
	// The bytes are never written again: append only writes past them.
	return unsafe.String(&b.cur[start], len(s))
}
