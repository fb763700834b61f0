package session

import (
	"path"
	"sort"
	"strings"
	"unicode/utf8"
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
			k := norm(t.raw)
			paths[k] = append(paths[k], ev)
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
	ev, ok := l.Paths[Normalize(l.Cwd, p)]
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
	q := Normalize(l.Cwd, p)
	qBase := path.Base(q)
	type cand struct {
		p          string
		tier, dist int
	}
	cands := make([]cand, 0, len(l.Paths))
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
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.tier != b.tier {
			return a.tier < b.tier
		}
		if a.dist != b.dist {
			return a.dist < b.dist
		}
		return a.p < b.p
	})
	if len(cands) > n {
		cands = cands[:n]
	}
	out := make([]string, len(cands))
	for i, c := range cands {
		out[i] = c.p
	}
	return out
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
