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
