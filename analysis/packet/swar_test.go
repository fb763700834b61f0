package packet

import (
	"math/rand/v2"
	"testing"

	"github.com/baton-md/baton/internal/ascii"
)

// The eight-bytes-at-a-time passes must agree with their byte-at-a-time
// definitions on every byte value, at every position and length.

func TestWordBytes(t *testing.T) {
	for c := range 256 {
		for k := range 8 {
			x := uint64(c) << (8 * k)
			want := uint64(0)
			if wordByte[c] {
				want = 0x80 << (8 * k)
			}
			if got := ascii.WordBytes(x); got != want { // the other bytes, zero, are not word bytes

				t.Fatalf("byte %#x at %d: got %#x, want %#x", c, k, got, want)
			}
		}
	}
}

func randomText(r *rand.Rand, n int) []byte {
	alphabet := []byte("aZz09_ \t\r\n-'.,:;AMQ\x80\xe2\x99\xff\x00\x7f@[`{")
	b := make([]byte, n)
	for i := range b {
		if r.IntN(4) == 0 {
			b[i] = byte(r.IntN(256))
		} else {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
	}
	return b
}

func TestFoldProse(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for range 2000 {
		b := randomText(r, r.IntN(70))
		want := make([]byte, len(b))
		for i, c := range b {
			switch {
			case c >= 'A' && c <= 'Z':
				c += 'a' - 'A'
			case c == '\n' || c == '\r' || c == '\t':
				c = ' '
			}
			want[i] = c
		}
		got := append([]byte(nil), b...)
		foldProseInto(got, got)
		if string(got) != string(want) {
			t.Fatalf("foldProseInto(%q) = %q, want %q", b, got, want)
		}
	}
}
