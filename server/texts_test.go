package server

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"
)

// TestTextBlocks: a stored text equals the original; small texts are packed
// one after another into a shared block, a new block starts when one is
// full, and a large text keeps its own allocation. Safe for concurrent use.
func TestTextBlocks(t *testing.T) {
	var b textBlocks
	a := b.store(strings.Repeat("a", 1000))
	c := b.store(strings.Repeat("c", 2000))
	if a != strings.Repeat("a", 1000) || c != strings.Repeat("c", 2000) {
		t.Fatal("a stored text is not the text")
	}
	if uintptr(unsafe.Pointer(unsafe.StringData(c))) != uintptr(unsafe.Pointer(unsafe.StringData(a)))+1000 {
		t.Error("two small texts are not packed one after the other")
	}
	big := strings.Repeat("b", textMaxPacked+1)
	if got := b.store(big); unsafe.StringData(got) != unsafe.StringData(big) {
		t.Error("a large text was copied")
	}
	if b.store("") != "" {
		t.Error("the empty text")
	}
	// Fill the block: the next text starts a new one, and the old texts
	// are unchanged.
	for range textBlockSize / textMaxPacked {
		b.store(strings.Repeat("x", textMaxPacked))
	}
	if a != strings.Repeat("a", 1000) || c != strings.Repeat("c", 2000) {
		t.Fatal("filling the block changed a stored text")
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			want := strings.Repeat(string(rune('a'+i)), 3000+i)
			for range 100 {
				if got := b.store(want); got != want {
					t.Errorf("concurrent store: got %d bytes, want %d", len(got), len(want))
					return
				}
			}
		})
	}
	wg.Wait()
}

// recycled waits until the pool hands out the buffer at address first (the
// collector has found it unreachable and its finalizer has run), or gives
// up after a while: false.
func recycled(p *bufferPool, first uintptr, n, tries int) bool {
	for range tries {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
		if b := p.get(n); uintptr(unsafe.Pointer(unsafe.SliceData(b[:1]))) == first {
			return true
		}
	}
	return false
}

// TestLargeTextBuffers: a sealed text's buffer comes back to the pool once
// nothing refers to any byte of it, and not while a substring of it is in
// use, whose bytes then stay as they were; a buffer that does not fit is
// not handed out; a full pool takes nothing back; and once gets stop, it
// keeps nothing.
func TestLargeTextBuffers(t *testing.T) {
	p := &bufferPool{keep: 2, keepBytes: 64 << 20, idle: time.Minute}
	const n = 200 << 10
	b := append(p.get(n), strings.Repeat("x", n)...)
	first := uintptr(unsafe.Pointer(unsafe.SliceData(b))) // a pointer would keep it reachable
	text := p.seal(b)
	part := strings.Clone(text[1000:1010]) // shares no bytes
	kept := text[2000:2010]                // shares text's bytes
	text, b = "", nil
	if recycled(p, first, n, 40) {
		t.Fatal("a buffer was handed out while a substring of its text was in use")
	}
	if kept != strings.Repeat("x", 10) || part != strings.Repeat("x", 10) {
		t.Fatalf("substrings changed: %q %q", kept, part)
	}
	runtime.KeepAlive(kept)
	kept = ""
	if !recycled(p, first, n, 400) {
		t.Fatal("the buffer of an unreachable text did not come back")
	}

	// A buffer far larger than asked for stays in the pool.
	big := p.seal(append(p.get(8*n), 'x'))
	bigFirst := uintptr(unsafe.Pointer(unsafe.StringData(big)))
	big = ""
	for range 20 {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	if b := p.get(n / 4); uintptr(unsafe.Pointer(unsafe.SliceData(b[:1]))) == bigFirst {
		t.Error("a buffer 32 times the size asked for was handed out")
	}

	// Idle: nothing is taken back, and what was held is let go.
	// Full, in bytes: a third buffer of n is not taken back when two fill it.
	full := &bufferPool{keep: 8, keepBytes: 2 * n, idle: time.Minute, lastGet: time.Now()}
	for range 3 {
		full.put(make([]byte, n))
	}
	if len(full.free) != 2 {
		t.Errorf("a pool of %d bytes holds %d buffers of %d", 2*n, len(full.free), n)
	}

	idle := &bufferPool{keep: 2, keepBytes: 64 << 20, idle: 20 * time.Millisecond}
	idle.put(make([]byte, n))
	idle.lastGet = time.Now()
	idle.put(make([]byte, n))
	if len(idle.free) != 1 {
		t.Fatalf("free = %d buffers, want the one put while gets came", len(idle.free))
	}
	idle.get(1) // starts the idle timer
	time.Sleep(100 * time.Millisecond)
	idle.mu.Lock()
	held := len(idle.free)
	idle.mu.Unlock()
	if held != 0 {
		t.Errorf("an idle pool still holds %d buffers", held)
	}
	idle.put(make([]byte, n))
	if len(idle.free) != 0 {
		t.Error("an idle pool took a buffer back")
	}
}
