package server

import (
	"runtime"
	"slices"
	"sync"
	"time"
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

// largeTexts recycles the buffers of large texts (over textMaxPacked).
// Every edit of a large document makes a text of its own, and a fresh
// megabyte is often memory the runtime had given back to the system: on a
// virtual machine, touching such a page again can cost tens of
// microseconds, and copying a 1 MB text into fresh pages took up to 18 ms
// of a keystroke. A buffer comes back here only once the collector has
// found nothing referring to any byte of it (a finalizer on the buffer),
// so no string that shares it can see it written again. The pool lets its
// buffers go once edits stop coming, before the server returns its idle
// memory (returnMemoryWhenIdle, after a second).
var largeTexts = bufferPool{keep: 8, keepBytes: 16 << 20, idle: 500 * time.Millisecond}

type bufferPool struct {
	keep      int           // buffers held at most
	keepBytes int           // and bytes: a 16 MB document's edits keep one
	idle      time.Duration // the buffers are let go this long after the last get

	mu      sync.Mutex
	free    [][]byte
	lastGet time.Time
	timer   *time.Timer // lets the buffers go when idle
}

// get returns an empty buffer with room for n bytes: a recycled one whose
// capacity is at least n and not much more, or a new one with room to grow.
func (p *bufferPool) get(n int) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lastGet = time.Now()
	if p.timer == nil {
		p.timer = time.AfterFunc(p.idle, p.letGo)
	} else {
		p.timer.Reset(p.idle)
	}
	for i := len(p.free) - 1; i >= 0; i-- {
		if b := p.free[i]; cap(b) >= n && cap(b) <= 2*n+textMaxPacked {
			p.free = slices.Delete(p.free, i, i+1)
			return b[:0]
		}
	}
	return make([]byte, 0, n+n/16+4096)
}

// seal returns the string of b's bytes, which are never written again
// while it (or any string sharing its bytes) is reachable; after that the
// buffer may come back to the pool. b must be a buffer of its own
// allocation (from get, or grown from one by append) and sealed once.
func (p *bufferPool) seal(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	c := cap(b)
	base := unsafe.SliceData(b)
	runtime.SetFinalizer(base, func(first *byte) { p.put(unsafe.Slice(first, c)) })
	return unsafe.String(base, len(b))
}

// put takes back a buffer nothing refers to any more, unless edits have
// stopped or the pool is full (in buffers or in bytes).
func (p *bufferPool) put(b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	held := cap(b)
	for _, f := range p.free {
		held += cap(f)
	}
	if len(p.free) < p.keep && held <= p.keepBytes && time.Since(p.lastGet) < p.idle {
		p.free = append(p.free, b)
	}
}

// letGo drops the pool's buffers once no get came for p.idle.
func (p *bufferPool) letGo() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if time.Since(p.lastGet) >= p.idle {
		clear(p.free)
		p.free = p.free[:0]
	}
}
