package governance

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// findFileURIs finds exactly what the pattern it replaces finds.
func TestFindFileURIsIsThePattern(t *testing.T) {
	cases := []string{
		"", "file:///", "file:///a", "FILE:///C:/x.md, then", "See file:///ws/specs/3/plan.md for it.",
		"ffile:///x file:///y)z", "file:///a`b", "file:////x", "file::///x", "xfile:///", "file:///\u00e9t\u00e9 done",
		"file:///a\tfile:///b\nfile:///c\"d'e<f>g", "fIlE:///\xff\xfe", ":///:///file:///", "file:///file:///",
	}
	alphabet := []string{"file", "FILE", ":", "/", "///", ":///", "a", " ", ")", "`", "\"", "'", "<", ">", "\t", "\n", "\u00e9", "\xff", "\v"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b []byte
		for range r.IntN(12) {
			b = append(b, alphabet[r.IntN(len(alphabet))]...)
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		var want [][2]int
		for _, loc := range fileURIRe.FindAllStringIndex(c, -1) {
			want = append(want, [2]int{loc[0], loc[1]})
		}
		if got := findFileURIs(c); !slices.Equal(got, want) {
			t.Fatalf("findFileURIs(%q) = %v, the pattern finds %v", c, got, want)
		}
	}
}

func FuzzFindFileURIs(f *testing.F) {
	f.Add("See file:///ws/specs/3/plan.md, and FILE:///C:/x.")
	f.Fuzz(func(t *testing.T, s string) {
		var want [][2]int
		for _, loc := range fileURIRe.FindAllStringIndex(s, -1) {
			want = append(want, [2]int{loc[0], loc[1]})
		}
		if got := findFileURIs(s); !slices.Equal(got, want) {
			t.Fatalf("findFileURIs(%q) = %v, the pattern finds %v", s, got, want)
		}
	})
}

// has finds what lowering the text and searching it found, for every
// needle it is asked about.
func TestIndexFoldASCIIIsLowerThenContains(t *testing.T) {
	needles := []string{"file:///", "](file:", "readme.md", "file", "ab"}
	alphabet := []string{"file", "FILE", "File", ":///", "](", "FILE:", "README", ".md", ".MD", "readme", "a", "B", "\u0130", "\u212a", "\xff", " "}
	r := rand.New(rand.NewPCG(3, 4))
	for range 50000 {
		var b []byte
		for range r.IntN(10) {
			b = append(b, alphabet[r.IntN(len(alphabet))]...)
		}
		s := string(b)
		for _, n := range needles {
			if got, want := indexFoldASCII(s, n) >= 0, strings.Contains(strings.ToLower(s), n); got != want {
				t.Fatalf("indexFoldASCII(%q, %q) >= 0 is %v, lowering finds %v", s, n, got, want)
			}
		}
	}
}
