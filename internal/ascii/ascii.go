// Package ascii holds byte-level text checks (most ignoring ASCII case) for
// the analyzers' quick rejections before a regular expression or a full
// scan runs.
package ascii

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"unsafe"
)

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// WordBytes has bit 7 of byte k set when byte k of x is a word byte (an
// ASCII letter, digit or '_': regexp's \w), eight bytes at once.
func WordBytes(x uint64) uint64 {
	low := x &^ highs // each byte's low seven bits: no carry between bytes below
	// A byte is >= c when adding 0x80-c sets its bit 7, and > c when adding
	// 0x7f-c does. With the case bit set, exactly the letters of either
	// case are 'a' to 'z'.
	folded := low | 0x20*ones
	letter := (folded + (0x80-'a')*ones) &^ (folded + (0x7f-'z')*ones)
	digit := (low + (0x80-'0')*ones) &^ (low + (0x7f-'9')*ones)
	y := low ^ '_'*ones
	underscore := ^((y + 0x7f*ones) | y) // bit 7 set where y's byte is 0
	return (letter | digit | underscore) &^ x & highs
}

// Load8 is the eight bytes of s from i as a little-endian number, zero
// bytes past the end of s (which are no word bytes): the eight-at-a-time
// scans read a text's last bytes with it.
func Load8(s string, i int) uint64 {
	if i+8 <= len(s) {
		return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))
	}
	var tail [8]byte
	copy(tail[:], s[i:])
	return binary.LittleEndian.Uint64(tail[:])
}

// WordEnd is where the run of word bytes (WordBytes) that starts at i in
// s ends: len(s), or the first byte from i on that is not one. Eight bytes
// are read at a time: a byte at a time, with a branch each, the end of
// each word was most of a scan of a text's words.
func WordEnd(s string, i int) int {
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	for i+8 <= len(b) {
		m := WordBytes(binary.LittleEndian.Uint64(b[i:]))
		if m != highs {
			return i + bits.TrailingZeros64(^m&highs)/8
		}
		i += 8
	}
	for i < len(b) && isWordByte(b[i]) {
		i++
	}
	return i
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// ContainsFold reports whether s holds lower (lower-case ASCII letters) in
// any ASCII case.
func ContainsFold[T ~string | ~[]byte](s T, lower string) bool {
	for i := 0; i+len(lower) <= len(s); i++ {
		if s[i]|0x20 != lower[0] {
			continue
		}
		k := 1
		for k < len(lower) && s[i+k]|0x20 == lower[k] {
			k++
		}
		if k == len(lower) {
			return true
		}
	}
	return false
}

// Index is strings.Index(s, sub), searching for sub's byte at pivot
// rather than its first: for a marker whose first byte is common in prose
// ("secretlint-disable": 's'; "baton-": 'b') and which holds a rarer one
// ('-'), strings.Index stops at every common byte first; this stops only at
// the rare one. pivot must be an index of sub.
func Index(s, sub string, pivot int) int {
	c := sub[pivot]
	for i := pivot; i < len(s); {
		j := strings.IndexByte(s[i:], c)
		if j < 0 {
			return -1
		}
		i += j
		if start := i - pivot; start+len(sub) <= len(s) && s[start:start+len(sub)] == sub {
			return start
		}
		i++
	}
	return -1
}
