package session

import (
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
	"weak"
)

// fold folds the entries on the active path into the read ledger and the
// decision board (spec §5). norm normalizes a raw path against the
// session's cwd.
func fold(es []entry, pr *pathResult, norm func(string) string) (map[string][]Evidence, []Decision) {
	paths := make(map[string][]Evidence)
	type snap struct {
		idx int
		e   *entry
	}
	var snaps []snap
	lastSnap := make(map[string]int) // interviewId -> index in snaps
	visit := func(i int) {
		e := &es[i]
		for _, t := range e.touches {
			ev := Evidence{Tool: t.tool, TurnID: e.turnID, Timestamp: e.timestamp, Line: e.line, Raw: t.raw}
			if e.kind == kindFileEntry {
				ev.Operation = e.ext().operation
			}
			// clio's buildHandoffReadLedger adds a path only when it
			// normalizes to something: never the root or a lone '\'.
			if k := norm(t.raw); k != "" {
				paths[k] = append(paths[k], ev)
			}
		}
		if e.kind == kindDecisionLedger {
			if at, ok := lastSnap[e.ext().interviewID]; ok {
				snaps[at] = snap{i, e}
			} else {
				lastSnap[e.ext().interviewID] = len(snaps)
				snaps = append(snaps, snap{i, e})
			}
		}
	}
	if pr.all {
		for i := range es {
			visit(i)
		}
	} else {
		for _, i := range pr.keep {
			visit(i)
		}
	}
	// clio's foldDecisionBoard: the last snapshot per interview, newest
	// endedAt first, ties broken by the later snapshot first. clio compares
	// endedAt with localeCompare; for ISO timestamps that is byte order.
	sort.SliceStable(snaps, func(a, b int) bool {
		ea, eb := snaps[a].e.ext().endedAt, snaps[b].e.ext().endedAt
		if ea != eb {
			return ea > eb
		}
		return snaps[a].idx > snaps[b].idx
	})
	var board []Decision
	for _, s := range snaps {
		board = append(board, s.e.ext().decisions...)
	}
	return paths, board
}

// Lookup normalizes p against the session's cwd (see [Normalize]) and
// returns the evidence that put it in the read ledger. A nil Ledger holds
// nothing.
func (l *Ledger) Lookup(p string) ([]Evidence, bool) {
	if l == nil {
		return nil, false
	}
	k := Normalize(l.Cwd, p)
	if k == "" {
		return nil, false // clio's validateHandoffFiles drops what normalizes to ""
	}
	ev, ok := l.Paths[k]
	return ev, ok
}

// Nearest returns up to n ledger paths closest to p (normalized as by
// Lookup), for "did you mean" answers: paths with the same base name first
// (exactly, then ignoring case), then by edit distance (in code points),
// then in byte order. It returns nil when n <= 0 or the ledger is empty.
func (l *Ledger) Nearest(p string, n int) []string {
	if l == nil || n <= 0 || len(l.Paths) == 0 {
		return nil
	}
	return l.index().nearest(Normalize(l.Cwd, p), n)
}

// nearIndex is what Nearest needs of a ledger, built once per ledger (a
// Ledger is one version of a session: a changed file makes a new one): the
// paths by name and by folded name, and the answers given so far. A
// document with invented paths asks the same questions at every keystroke;
// against a 200,000-path session each answer took a distance to every path
// and a sort.
type nearIndex struct {
	once   sync.Once
	paths  []string // sorted
	byBase map[string][]string
	byFold map[string][]string

	mu    sync.Mutex
	cache map[nearKey][]string
}

type nearKey struct {
	q string
	n int
}

// nearIndexes holds each ledger's index while the ledger lives: keyed
// weakly, and dropped by a cleanup once the ledger is collected.
var nearIndexes sync.Map // weak.Pointer[Ledger] -> *nearIndex

// index returns the ledger's index; safe for concurrent use.
func (l *Ledger) index() *nearIndex {
	key := weak.Make(l)
	v, loaded := nearIndexes.LoadOrStore(key, &nearIndex{})
	if !loaded {
		runtime.AddCleanup(l, func(k weak.Pointer[Ledger]) { nearIndexes.Delete(k) }, key)
	}
	x := v.(*nearIndex)
	x.once.Do(func() {
		x.paths = make([]string, 0, len(l.Paths))
		x.byBase = map[string][]string{}
		x.byFold = map[string][]string{}
		for k := range l.Paths {
			x.paths = append(x.paths, k)
		}
		sort.Strings(x.paths)
		for _, k := range x.paths {
			b := path.Base(k)
			x.byBase[b] = append(x.byBase[b], k)
			x.byFold[strings.ToLower(b)] = append(x.byFold[strings.ToLower(b)], k)
		}
		x.cache = map[nearKey][]string{}
	})
	return x
}

// cand is a ledger path ranked for a query: by tier (0 the same name, 1 the
// same name but for case, 2 another), then edit distance, then the path.
type cand struct {
	p          string
	tier, dist int
}

func (a cand) less(b cand) bool {
	if a.tier != b.tier {
		return a.tier < b.tier
	}
	if a.dist != b.dist {
		return a.dist < b.dist
	}
	return a.p < b.p
}

func (x *nearIndex) nearest(q string, n int) []string {
	key := nearKey{q, n}
	x.mu.Lock()
	if out, ok := x.cache[key]; ok {
		x.mu.Unlock()
		return slices.Clone(out)
	}
	x.mu.Unlock()

	qBase := path.Base(q)
	seen := map[string]bool{}
	var best []cand // the n best so far, sorted
	offer := func(c cand) {
		if len(best) == n && !c.less(best[n-1]) {
			return
		}
		at, _ := slices.BinarySearchFunc(best, c, func(a, b cand) int {
			if a.less(b) {
				return -1
			}
			if b.less(a) {
				return 1
			}
			return 0
		})
		best = slices.Insert(best, at, c)
		if len(best) > n {
			best = best[:n]
		}
	}
	for _, k := range x.byBase[qBase] {
		seen[k] = true
		offer(cand{k, 0, editDistance(q, k)})
	}
	for _, k := range x.byFold[strings.ToLower(qBase)] {
		if !seen[k] {
			seen[k] = true
			offer(cand{k, 1, editDistance(q, k)})
		}
	}
	if len(best) < n || best[n-1].tier == 2 {
		// The other paths, each only as far as it could still rank.
		bd := newBounded(q)
		for _, k := range x.paths {
			if seen[k] {
				continue
			}
			limit := -1 // no bound until n are held
			if len(best) == n {
				limit = best[n-1].dist
			}
			if d, ok := bd.distance(k, limit); ok {
				offer(cand{k, 2, d})
			}
		}
	}
	out := make([]string, len(best))
	for i, c := range best {
		out[i] = c.p
	}
	x.mu.Lock()
	if len(x.cache) < 4096 {
		x.cache[key] = out
	}
	x.mu.Unlock()
	return slices.Clone(out)
}

// bounded computes edit distances from one query, reusing its rows.
type bounded struct {
	q         string
	qr        []rune
	prev, cur []int
}

func newBounded(q string) *bounded {
	qr := []rune(q)
	return &bounded{q: q, qr: qr, prev: make([]int, len(qr)+1), cur: make([]int, len(qr)+1)}
}

// distance is editDistance(q, b) when it is at most limit (any distance
// when limit < 0); ok is false when it is more. A path whose length alone
// puts it past the limit costs nothing, and the rows stop as soon as every
// cell is past it.
func (bd *bounded) distance(b string, limit int) (int, bool) {
	if limit >= 0 {
		// A code point is 1 to 4 bytes: the byte lengths bound the
		// distance from below.
		if diff := len(bd.q) - len(b); diff > 4*limit || -diff > 4*limit {
			return 0, false
		}
	}
	ra, prev, cur := bd.qr, bd.prev, bd.cur
	for i := range prev {
		prev[i] = i
	}
	j := 0
	for _, rb := range b {
		j++
		cur[0] = j
		rowMin := j
		for i, r := range ra {
			cost := 1
			if r == rb {
				cost = 0
			}
			v := min(prev[i+1]+1, cur[i]+1, prev[i]+cost)
			cur[i+1] = v
			rowMin = min(rowMin, v)
		}
		if limit >= 0 && rowMin > limit {
			return 0, false
		}
		prev, cur = cur, prev
	}
	d := prev[len(ra)]
	return d, limit < 0 || d <= limit
}

// editDistance is the Levenshtein distance between a and b, in code points.
func editDistance(a, b string) int {
	ra := make([]rune, 0, utf8.RuneCountInString(a))
	for _, r := range a {
		ra = append(ra, r)
	}
	prev := make([]int, len(ra)+1)
	cur := make([]int, len(ra)+1)
	for i := range prev {
		prev[i] = i
	}
	j := 0
	for _, rb := range b {
		j++
		cur[0] = j
		for i, r := range ra {
			cost := 1
			if r == rb {
				cost = 0
			}
			cur[i+1] = min(prev[i+1]+1, cur[i]+1, prev[i]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(ra)]
}
