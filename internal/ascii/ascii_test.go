package ascii

import (
	"strings"
	"testing"
)

func TestContainsFold(t *testing.T) {
	for _, c := range []struct {
		s, lower string
		want     bool
	}{
		{"SPECREW-VERDICT-BOUNDARY", "boundary", true},
		{"Stop_Intent", "top", true},
		{"boundar", "boundary", false},
		{"", "top", false},
		{"t0p", "top", false},
		{"bOuNdArY at the end", "boundary", true},
	} {
		if got := ContainsFold(c.s, c.lower); got != c.want {
			t.Errorf("ContainsFold(%q, %q) = %v, want %v", c.s, c.lower, got, c.want)
		}
		if got := ContainsFold([]byte(c.s), c.lower); got != c.want {
			t.Errorf("ContainsFold([]byte(%q), %q) = %v, want %v", c.s, c.lower, got, c.want)
		}
		// For letters the fold agrees with strings.Contains on lower-cased text.
		if want := strings.Contains(strings.ToLower(c.s), c.lower); want != c.want {
			t.Errorf("the case %q/%q is wrong itself", c.s, c.lower)
		}
	}
}

// TestWordEnd: the end of every run of word bytes is the byte-at-a-time
// answer, for every byte value and start, across the eight-byte steps.
func TestWordEnd(t *testing.T) {
	var all []byte
	for c := range 256 {
		all = append(all, byte(c), 'a', 'Z', '9', '_')
	}
	for _, s := range []string{string(all), "", "a", "abcdefghijklmnopqrstuvwxyz_0123456789 x", "é_x", "\x80a", strings.Repeat("word ", 20)} {
		for i := range len(s) + 1 {
			want := i
			for want < len(s) && isWordByte(s[want]) {
				want++
			}
			if got := WordEnd(s, i); got != want {
				t.Fatalf("WordEnd(%q, %d) = %d, want %d", s, i, got, want)
			}
		}
	}
}

// Index finds what strings.Index finds, whichever byte it pivots on.
func TestIndexIsStringsIndex(t *testing.T) {
	subs := []string{"secretlint-disable", "baton-", "-", "a-a", "--"}
	pieces := []string{"secretlint-disable", "secretlint", "-disable", "baton", "-", "a", "b", " ", "baton-", "\n"}
	seed := uint64(1)
	next := func(n int) int { // a small LCG: the test needs no more
		seed = seed*6364136223846793005 + 1442695040888963407
		return int(seed>>33) % n
	}
	for range 20000 {
		var sb strings.Builder
		for range next(8) {
			sb.WriteString(pieces[next(len(pieces))])
		}
		s := sb.String()
		for _, sub := range subs {
			for pivot := range len(sub) {
				if got, want := Index(s, sub, pivot), strings.Index(s, sub); got != want {
					t.Fatalf("Index(%q, %q, %d) = %d, strings.Index %d", s, sub, pivot, got, want)
				}
			}
		}
	}
}

// TestLoad8: the eight bytes from i, least significant first, and zero
// bytes past the end.
func TestLoad8(t *testing.T) {
	s := "abcdefghij"
	for i := 0; i <= len(s); i++ {
		var want uint64
		for k := 7; k >= 0; k-- {
			want <<= 8
			if i+k < len(s) {
				want |= uint64(s[i+k])
			}
		}
		if got := Load8(s, i); got != want {
			t.Errorf("Load8(%q, %d) = %#x, want %#x", s, i, got, want)
		}
	}
}
