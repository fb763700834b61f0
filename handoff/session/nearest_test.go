package session

import (
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"sort"
	"strings"
	"testing"
)

// nearestByScan is Nearest as it was: every path's distance, then a sort.
// The index must give the same answers.
func nearestByScan(l *Ledger, p string, n int) []string {
	q := Normalize(l.Cwd, p)
	qBase := path.Base(q)
	var cands []cand
	for k := range l.Paths {
		c := cand{p: k, tier: 2, dist: editDistance(q, k)}
		switch b := path.Base(k); {
		case b == qBase:
			c.tier = 0
		case strings.EqualFold(b, qBase):
			c.tier = 1
		}
		cands = append(cands, c)
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].less(cands[j]) })
	var out []string
	for i := 0; i < n && i < len(cands); i++ {
		out = append(out, cands[i].p)
	}
	return out
}

func randomLedger(r *rand.Rand, n int) *Ledger {
	dirs := []string{"src", "src/cache", "docs", "tests/unit", "Src", "a/b/c"}
	names := []string{"cache.ts", "Cache.ts", "index.ts", "evict.go", "README.md", "plan.md", "x", "cachee.ts", "é.md"}
	l := &Ledger{Cwd: "/w", Paths: map[string][]Evidence{}}
	for len(l.Paths) < n {
		l.Paths[dirs[r.IntN(len(dirs))]+"/"+names[r.IntN(len(names))]+fmt.Sprint(r.IntN(n))] = nil
		if r.IntN(4) == 0 {
			l.Paths[dirs[r.IntN(len(dirs))]+"/"+names[r.IntN(len(names))]] = nil
		}
	}
	return l
}

func TestNearestIndexMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	queries := []string{"src/cache.ts", "src/Cache.ts", "docs/plan.md", "nowhere/x", "é.md", "a/b/c/index.ts", "/w/src/cache.ts", "src/cachee.ts3"}
	for _, size := range []int{1, 5, 50, 500} {
		l := randomLedger(r, size)
		for _, q := range queries {
			for _, n := range []int{1, 3, 10} {
				want := nearestByScan(l, q, n)
				if got := l.Nearest(q, n); !slices.Equal(got, want) {
					t.Errorf("size %d, Nearest(%q, %d) = %q, want %q", size, q, n, got, want)
				}
				// Asked again, from the cache: the same, and a copy.
				got := l.Nearest(q, n)
				if !slices.Equal(got, want) {
					t.Errorf("size %d, cached Nearest(%q, %d) = %q, want %q", size, q, n, got, want)
				}
				if len(got) > 0 {
					got[0] = "changed"
					if l.Nearest(q, n)[0] == "changed" {
						t.Fatal("the cache hands out its own slice")
					}
				}
			}
		}
	}
}

// BenchmarkNearest200000 is the handoff check of one invented path against
// a session of 200,000 paths: the first call builds the index, each later
// one (every keystroke of the same document) is answered from it.
func BenchmarkNearest200000(b *testing.B) {
	l := randomLedger(rand.New(rand.NewPCG(1, 1)), 200_000)
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			fresh := &Ledger{Cwd: l.Cwd, Paths: l.Paths}
			fresh.Nearest("src/cache/evict.ts", 3)
		}
	})
	b.Run("another-query", func(b *testing.B) {
		l.Nearest("x", 1)
		i := 0
		for b.Loop() {
			i++
			l.Nearest(fmt.Sprintf("src/cache/evict%d.ts", i), 3)
		}
	})
	b.Run("again", func(b *testing.B) {
		l.Nearest("src/cache/evict.ts", 3)
		for b.Loop() {
			l.Nearest("src/cache/evict.ts", 3)
		}
	})
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			nearestByScan(l, "src/cache/evict.ts", 3)
		}
	})
}
