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
	for _, size := range []int{1, 5, 50, 500, 5000} {
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

// TestNearestTrieMatchesScan asks a ledger laid out as a real repository
// is (folders shared by many files, names that differ by a letter, case,
// non-ASCII names, paths outside the cwd, a path that is a prefix of
// another) for many kinds of invented path: the trie walk gives the scan's
// answers.
func TestNearestTrieMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	l := &Ledger{Cwd: "/w", Paths: map[string][]Evidence{}}
	dirs := []string{"src", "src/domains/session", "src/domains/session/tree", "tests/unit", "docs", "docs/ünïcödé", "/etc", "."}
	stems := []string{"handoff", "active-path", "entries", "manager", "fork", "Index", "index", "a", "ab", "abc", "日本"}
	exts := []string{".ts", ".test.ts", ".md", ".go", ""}
	for range 3000 {
		p := dirs[r.IntN(len(dirs))] + "/" + stems[r.IntN(len(stems))] + exts[r.IntN(len(exts))]
		if r.IntN(3) == 0 {
			p = strings.TrimSuffix(p, path.Ext(p)) + fmt.Sprint(r.IntN(40)) + path.Ext(p)
		}
		l.Paths[Normalize(l.Cwd, p)] = nil
	}
	queries := []string{"src/domains/session/handof.ts", "src/domains/sesion/handoff.ts", "SRC/index.ts", "docs/unicode/x.md",
		"a", "/etc/hostname", "tests/unit/fork.test.tsx", "src/domains/session/tree/active_path.ts", "日本.md", "zzzzzzzzzzzzzzzzzzzzzzzz",
		"src/domains/session/tree/active-path.ts7", ".", "src", "src/", "x/y/z/w/v/u/t/s/r/q/p/o/n/m/l/k/j/i/h/g/f/e/d/c/b/a.ts"}
	for _, q := range queries {
		for _, n := range []int{1, 3, 4, 25} {
			want := nearestByScan(l, q, n)
			if got := l.Nearest(q, n); !slices.Equal(got, want) {
				t.Errorf("Nearest(%q, %d) = %q, want %q", q, n, got, want)
			}
		}
	}
}

// BenchmarkNearest48Invented200000 is a document naming 48 invented paths,
// checked against a session of 200,000 paths whose index is built (once
// per ledger version): each iteration asks for 48 paths not asked before.
func BenchmarkNearest48Invented200000(b *testing.B) {
	l := randomLedger(rand.New(rand.NewPCG(1, 1)), 200_000)
	l.Nearest("x", 1) // build the index
	i := 0
	for b.Loop() {
		for j := range 48 {
			i++
			l.Nearest(fmt.Sprintf("%s/evict%d-%d.ts", []string{"src/cache", "docs", "lib"}[j%3], i, j), 3)
		}
	}
}
