package session

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// parseText parses a whole current.jsonl held in memory.
func parseText(text string) *parser {
	p := &parser{}
	p.feed([]byte(text))
	return p
}

// keptIDs lists the turnIds of the entries on the path, in file order.
func keptIDs(es []entry, pr pathResult) []string {
	var ids []string
	for i := range es {
		if pr.on(i) {
			ids = append(ids, es[i].turnID)
		}
	}
	return ids
}

func TestActivePath(t *testing.T) {
	// A branched session: u1 - a1 - old1 (abandoned) and a1 - new1 - new2 (the leaf).
	branched := func(b *builder) {
		b.user("u1", "")
		b.user("a1", "u1")
		b.user("old1", "a1")
		b.user("new1", "a1")
	}
	tests := []struct {
		name  string
		build func(b *builder)
		pin   string
		want  []string
		leaf  string
	}{
		{
			name: "labels follow their target",
			build: func(b *builder) {
				branched(b)
				b.label("l-on", "a1")
				b.label("l-off", "old1")
				b.entry("label", "l-parent", "new1", map[string]any{"targetTurnId": "old1"}) // the target decides, not the parent
				b.entry("label", "l-none", "new1", nil)                                      // no target: never on the path
				b.user("new2", "new1")
			},
			want: []string{"u1", "a1", "new1", "l-on", "new2"},
			leaf: "new2",
		},
		{
			name: "compaction summaries: firstKeptTurnId, else the parent rules",
			build: func(b *builder) {
				branched(b)
				b.compaction("c-early", "", "")          // null parent before the leaf: kept
				b.user("new2", "new1")                   // the leaf
				b.compaction("c-kept", "", "new1")       // after the leaf, but firstKeptTurnId is on the path
				b.compaction("c-off", "", "old1")        // after the leaf, anchored off the path
				b.compaction("c-parent", "new2", "old1") // firstKeptTurnId off the path, parent on it
				b.compaction("c-offparent", "old1", "gone")
			},
			want: []string{"u1", "a1", "new1", "c-early", "new2", "c-kept", "c-parent"},
			leaf: "new2",
		},
		{
			name: "sessionInfo: no targetTurnId, or one on the path",
			build: func(b *builder) {
				branched(b)
				b.user("new2", "new1")
				b.entry("sessionInfo", "s-none", "old1", map[string]any{"name": "renamed"})
				b.entry("sessionInfo", "s-on", "", map[string]any{"targetTurnId": "new1"})
				b.entry("sessionInfo", "s-off", "new2", map[string]any{"targetTurnId": "old1"})
				b.entry("sessionInfo", "s-null", "new2", map[string]any{"targetTurnId": nil})
			},
			want: []string{"u1", "a1", "new1", "new2", "s-none", "s-on"},
			leaf: "new2",
		},
		{
			name: "other entries by parentTurnId; null parents by position",
			build: func(b *builder) {
				branched(b)
				b.entry("custom", "x-old", "old1", nil)
				b.entry("custom", "x-null-before", "", nil)
				b.user("new2", "new1")
				b.entry("custom", "x-on", "new2", nil)
				b.entry("custom", "x-null-after", "", nil)
				b.entry("custom", "x-missing", "nowhere", nil)
			},
			want: []string{"u1", "a1", "new1", "x-null-before", "new2", "x-on"},
			leaf: "new2",
		},
		{
			name: "no branching and no pin: everything",
			build: func(b *builder) {
				b.user("u1", "")
				b.user("a1", "u1")
				b.label("l-nowhere", "gone")
				b.user("b1", "missing-parent") // a gap in the chain
				b.entry("custom", "x-after", "", nil)
			},
			want: []string{"u1", "a1", "l-nowhere", "b1", "x-after"},
			leaf: "b1",
		},
		{
			name: "a pinned leaf in a chain cuts what follows",
			build: func(b *builder) {
				b.user("u1", "")
				b.user("a1", "u1")
				b.label("l1", "a1")
				b.user("b1", "a1")
				b.entry("custom", "x-after", "", nil)
			},
			pin:  "a1",
			want: []string{"u1", "a1", "l1"},
			leaf: "a1",
		},
		{
			name: "a sessionInfo pin resolves through targetTurnId, else parentTurnId",
			build: func(b *builder) {
				branched(b)
				b.user("new2", "new1")
				b.entry("sessionInfo", "s1", "old1", map[string]any{"targetTurnId": nil})
			},
			pin:  "s1",
			want: []string{"u1", "a1", "old1"},
			leaf: "old1",
		},
		{
			name: "a cycle in the parents ends the walk",
			build: func(b *builder) {
				b.user("x", "y")
				b.user("y", "x")
				b.user("z", "x")
			},
			want: []string{"x", "y", "z"},
			leaf: "z",
		},
		{
			name: "no message at all: everything",
			build: func(b *builder) {
				b.fileEntry("f1", "", "a", "read")
				b.label("l1", "f1")
			},
			want: []string{"f1", "l1"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBuilder(t, "/w")
			tc.build(b)
			p := parseText(b.text())
			pr := activePath(p.entries, tc.pin)
			if diff := cmp.Diff(tc.want, keptIDs(p.entries, pr)); diff != "" {
				t.Errorf("path (-want +got):\n%s", diff)
			}
			leaf := ""
			if pr.leaf >= 0 {
				leaf = p.entries[pr.leaf].turnID
			}
			if leaf != tc.leaf {
				t.Errorf("leaf = %q, want %q", leaf, tc.leaf)
			}
		})
	}
}

// on reports whether entry i is on the path.
func (r *pathResult) on(i int) bool {
	if r.all {
		return true
	}
	lo, hi := 0, len(r.keep)
	for lo < hi {
		m := (lo + hi) / 2
		if r.keep[m] < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(r.keep) && r.keep[lo] == i
}
