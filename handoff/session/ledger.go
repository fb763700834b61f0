package session

import (
	"math"
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
	trie   []trieNode // the paths' code points as a trie; trie[0] is the root

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
		x.trie = buildTrie(x.paths)
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
		// The other paths, walked down the trie: a prefix's row of edit
		// distances is computed once for every path under it, and a
		// subtree is left as soon as no path in it could still rank.
		x.walk(q, func(i int32, d int) {
			if k := x.paths[i]; !seen[k] {
				offer(cand{k, 2, d})
			}
		}, func() int {
			if len(best) < n || best[n-1].tier != 2 {
				return -1 // no bound until n are held
			}
			return best[n-1].dist
		})
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

// trieNode is a node of the paths' trie: one code point, its first child
// and next sibling (indexes into the trie, 0 for none: the root is no one's
// child), and the path that ends here (-1 for none).
type trieNode struct {
	r          rune
	child, sib int32
	path       int32
	// minLen and maxLen bound the length, in code points, of the paths
	// below (and at) the node.
	minLen, maxLen int32
}

// buildTrie builds the trie of paths, which are sorted: each path shares a
// prefix with the one before it, so a stack of the last path's nodes is
// all the building needs.
func buildTrie(paths []string) []trieNode {
	nodes := []trieNode{{path: -1, minLen: math.MaxInt32}}
	stack := []int32{0} // the nodes of the last path's code points, root first
	last := []int32{0}  // the last child of each node on the stack
	var prev, cur []rune
	for i, p := range paths {
		cur = cur[:0]
		for _, r := range p {
			cur = append(cur, r)
		}
		common := 0
		for common < len(prev) && common < len(cur) && prev[common] == cur[common] {
			common++
		}
		stack, last = stack[:common+1], last[:common+1]
		for _, r := range cur[common:] {
			id := int32(len(nodes))
			nodes = append(nodes, trieNode{r: r, path: -1, minLen: math.MaxInt32})
			parent := stack[len(stack)-1]
			if lc := last[len(last)-1]; lc == 0 {
				nodes[parent].child = id
			} else {
				nodes[lc].sib = id
			}
			last[len(last)-1] = id
			stack, last = append(stack, id), append(last, 0)
		}
		n := int32(len(cur))
		nodes[stack[len(stack)-1]].path = int32(i)
		for _, id := range stack {
			nodes[id].minLen = min(nodes[id].minLen, n)
			nodes[id].maxLen = max(nodes[id].maxLen, n)
		}
		prev, cur = cur, prev
	}
	return nodes
}

// walk calls found with every path (by index) whose edit distance from q
// is at most what bound returns (any when it returns < 0), and with that
// distance; bound is asked again as the walk goes, so it may shrink. The
// children that continue q are walked first, so that close paths come
// early and bound shrinks soon.
func (x *nearIndex) walk(q string, found func(int32, int), bound func() int) {
	qr := []rune(q)
	rows := [][]int{make([]int, len(qr)+1)}
	for i := range rows[0] {
		rows[0][i] = i
	}
	var visit func(id int32, depth int)
	visit = func(id int32, depth int) {
		nd := &x.trie[id]
		prev := rows[depth]
		if nd.path >= 0 {
			if lim := bound(); lim < 0 || prev[len(qr)] <= lim {
				found(nd.path, prev[len(qr)])
			}
		}
		if depth+1 >= len(rows) {
			rows = append(rows, make([]int, len(qr)+1))
		}
		// The child that continues q first, then the others in order.
		next := rune(-1)
		if depth < len(qr) {
			next = qr[depth]
		}
		for pass := 0; pass < 2; pass++ {
			for c := nd.child; c != 0; c = x.trie[c].sib {
				if (x.trie[c].r == next) != (pass == 0) {
					continue
				}
				if x.row(qr, rows[depth], rows[depth+1], &x.trie[c], depth+1, bound()) {
					visit(c, depth+1)
				}
			}
		}
	}
	visit(0, 0)
}

// row fills cur, the edit distances from each prefix of q to the prefix
// of length j that ends at node c, from prev, the row of its parent. It
// reports whether a path below c could be within lim (always, for lim <
// 0): the least distance a completion of the row can reach, given the
// lengths of the paths below c, is at most lim.
func (x *nearIndex) row(q []rune, prev, cur []int, c *trieNode, j, lim int) bool {
	cur[0] = j
	for i, r := range q {
		cost := 1
		if r == c.r {
			cost = 0
		}
		cur[i+1] = min(prev[i+1]+1, cur[i]+1, prev[i]+cost)
	}
	if lim < 0 {
		return true
	}
	// From cell i, the rest of q (len(q)-i code points) is matched against
	// the rest of a path (minLen-j to maxLen-j code points): at least the
	// difference in length more edits.
	lo, hi := int(c.minLen)-j, int(c.maxLen)-j
	for i, v := range cur {
		rest := len(q) - i
		gap := 0
		switch {
		case rest < lo:
			gap = lo - rest
		case rest > hi:
			gap = rest - hi
		}
		if v+gap <= lim {
			return true
		}
	}
	return false
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
