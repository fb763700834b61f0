package handoff

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/handoff/session"
)

// Features are the editor features of handoff documents.
var Features = &analysis.Features{Hover: Hover, Complete: Complete}

// ModelOf is the handoff analyzer's model of an analysed document, or nil.
func ModelOf(res *analysis.Result) *Model {
	if res == nil {
		return nil
	}
	m, _ := res.Model(Analyzer).(*Model)
	return m
}

// Hover explains what is at off in a handoff document: a file path's
// evidence in the session's read ledger (or that the session never touched
// it), the goal gate, and a list's bound.
func Hover(res *analysis.Result, off int) []analysis.HoverResult {
	m := ModelOf(res)
	if m == nil {
		return nil
	}
	d := m.Doc
	if within(d.GoalLine, off) {
		g := d.Goal
		text := fmt.Sprintf("**Goal** (%d characters): the new session starts from it. A goal must not be a bare continuation word (%s) and must be at least %d characters long.",
			GoalLength(g), strings.Join(GoalStoplist, ", "), MinGoalLength)
		if p := GoalProblem(g); p != "" {
			text += " This one is refused (" + p + ")."
		}
		return []analysis.HoverResult{{Span: d.GoalLine, Markdown: text}}
	}
	sec, it := d.ItemAt(off)
	if it != nil && it.Kind == KindFile && within(it.PathSpan, off) {
		return []analysis.HoverResult{{Span: it.PathSpan, Markdown: pathHover(m, it)}}
	}
	if sec != nil && within(sec.Heading.Span, off) {
		for _, l := range Lists {
			if l.Section == sec.Name || l.Also == sec.Name && sec.Name != "" {
				n := len(sec.Items)
				return []analysis.HoverResult{{Span: sec.Heading.Span, Markdown: fmt.Sprintf("**%s**: at most %d %s (clio's bound; settled decisions do not count); this section has %d. Every string is at most %d bytes, the marker `%s` included.",
					sec.Name, l.Bound, l.Noun[1], n, MaxStringBytes, TruncationMarker)}}
			}
		}
	}
	return nil
}

func pathHover(m *Model, it *Item) string {
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
		if near := Nearest(l, it.Path, 3); len(near) > 0 {
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

func within(s markdown.Span, off int) bool { return s.Len() > 0 && off >= s.Start && off <= s.End }

// MaxPathItems is the most ledger paths one completion offers; with more,
// the offer is incomplete and typing narrows it.
const MaxPathItems = 200

// Complete offers, in an item of ## Files, the paths of the session's read
// ledger not listed yet that hold what was typed after "- `" (any case): it
// completes the path and closes the backtick. nil elsewhere.
func Complete(res *analysis.Result, off int) *analysis.Completion {
	m := ModelOf(res)
	if m == nil || m.Lookup == nil || m.Lookup.Ledger == nil {
		return nil
	}
	sec := m.Doc.SectionAt(off)
	if sec == nil && off > 0 && off == len(res.Doc.Text) {
		// The cursor at the very end of a document with no final newline:
		// it is on the last line, of the last section, whose span ends
		// where the cursor is.
		sec = m.Doc.SectionAt(off - 1)
	}
	if sec == nil || sec.Name != Files {
		return nil
	}
	lines := res.Doc.Lines
	lineStart := lines.LineStart(lines.LineOf(off))
	prefix := res.Doc.Text[lineStart:off]
	t := strings.TrimLeft(prefix, " ")
	if !strings.HasPrefix(t, "- `") || strings.Count(t, "`") != 1 {
		return nil
	}
	from := lineStart + len(prefix) - len(t) + len("- `")
	typed := strings.ToLower(t[len("- `"):])
	listed := map[string]bool{}
	for _, it := range m.Doc.Items(Files) {
		listed[it.Path] = true
	}
	var paths []string
	for p := range m.Lookup.Ledger.Paths {
		if !listed[p] && p != "." && (typed == "" || strings.Contains(strings.ToLower(p), typed)) {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	out := &analysis.Completion{}
	if len(paths) > MaxPathItems {
		paths, out.Incomplete = paths[:MaxPathItems], true
	}
	for _, p := range paths {
		out.Items = append(out.Items, analysis.CompletionItem{
			Label: p, Kind: analysis.CompleteFile, Detail: "in the session's read ledger",
			Edit: analysis.Edit{Span: markdown.Span{Start: from, End: off}, NewText: p + "`: "},
		})
	}
	return out
}
