package server

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
)

// handoffHover explains what is under the cursor in a handoff document: a
// file path's evidence in the session's read ledger (or that the session
// never touched it), the goal gate, and a list's bound.
func handoffHover(doc *analysis.Document, m *handoff.Model, off int) (string, *analysis.Span) {
	d := m.Doc
	if in(d.GoalLine, off) {
		g := d.Goal
		text := fmt.Sprintf("**Goal** (%d characters): the new session starts from it. A goal must not be a bare continuation word (%s) and must be at least %d characters long.",
			handoff.GoalLength(g), strings.Join(handoff.GoalStoplist, ", "), handoff.MinGoalLength)
		if p := handoff.GoalProblem(g); p != "" {
			text += " This one is refused (" + p + ")."
		}
		return text, &d.GoalLine
	}
	sec, it := d.ItemAt(off)
	if it != nil && it.Kind == handoff.KindFile && in(it.PathSpan, off) {
		return pathHover(m, it), &it.PathSpan
	}
	if sec != nil && in(sec.Heading.Span, off) {
		for _, l := range handoff.Lists {
			if l.Section == sec.Name || l.Also == sec.Name && sec.Name != "" {
				n := len(sec.Items)
				return fmt.Sprintf("**%s**: at most %d %s (clio's bound; settled decisions do not count); this section has %d. Every string is at most %d bytes, the marker `%s` included.",
					sec.Name, l.Bound, l.Noun[1], n, handoff.MaxStringBytes, handoff.TruncationMarker), &sec.Heading.Span
			}
		}
	}
	return "", nil
}

func pathHover(m *handoff.Model, it *handoff.Item) string {
	lk := m.Lookup
	switch {
	case lk == nil:
		return fmt.Sprintf("`%s`: the session's read ledger was not consulted.", it.Path)
	case lk.Err != nil || lk.Ledger == nil:
		return fmt.Sprintf("`%s`: the session's read ledger could not be read, so baton cannot say whether the session touched it.", it.Path)
	}
	l := lk.Ledger
	ev, ok := l.Lookup(it.Path)
	if !ok {
		s := fmt.Sprintf("`%s` was **never touched by session %s**.", it.Path, l.SessionID)
		if near := handoff.Nearest(l, it.Path, 3); len(near) > 0 {
			s += " Nearest paths in its ledger: `" + strings.Join(near, "`, `") + "`."
		}
		return s
	}
	var b strings.Builder
	fmt.Fprintf(&b, "`%s` is in session %s's read ledger:\n\n", it.Path, l.SessionID)
	for i, e := range ev {
		if i == 5 {
			fmt.Fprintf(&b, "- … and %d more\n", len(ev)-i)
			break
		}
		fmt.Fprintf(&b, "- %s\n", evidence(l, e))
	}
	return b.String()
}

// evidence writes one piece of evidence: "read by `read`, turn a1,
// 14:02:11, current.jsonl line 42".
func evidence(l *session.Ledger, e session.Evidence) string {
	how := "read by `" + e.Tool + "`"
	if e.Tool == "fileEntry" {
		how = "a file entry (" + e.Operation + ")"
	}
	ts := e.Timestamp
	if i := strings.IndexByte(ts, 'T'); i >= 0 && len(ts) >= i+9 {
		ts = ts[i+1 : i+9]
	}
	return fmt.Sprintf("%s, turn %s, %s, %s line %d", how, e.TurnID, ts, filepath.Base(l.File), e.Line)
}

func in(s analysis.Span, off int) bool { return s.Len() > 0 && off >= s.Start && off <= s.End }
