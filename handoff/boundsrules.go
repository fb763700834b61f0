package handoff

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// tally is what the Bounds applied notes must account for, and the notes.
type tally struct {
	lists  map[string][]*Item // the items each list's bound counts, by label, in document order
	marked []markdown.Span    // the markers of counted strings that end with TruncationMarker
	notes  map[string]*Item   // the first note of each list, by label
	cut    *Item              // the first cut note
	bounds *Section           // the first Bounds applied section
	// folded: the document has settled decisions, so clio may have folded
	// extracted decisions (kept by the bound, their cuts counted) into them.
	folded bool
}

func (c *checker) tally() *tally {
	d := c.d
	t := &tally{lists: map[string][]*Item{}, notes: map[string]*Item{}, bounds: d.Section(BoundsApplied)}
	var buf [2]Field
	for _, l := range Lists {
		// d.Items(l.Section, l.Also), read in place, into a slice of the
		// size it needs: lists run to thousands of items.
		n := 0
		for _, s := range d.Sections {
			if s.Known && !s.Glued && (s.Name == l.Section || s.Name == l.Also) {
				n += len(s.Items)
			}
		}
		if n == 0 {
			continue
		}
		list := make([]*Item, 0, n)
		for _, s := range d.Sections {
			if !s.Known || s.Glued || (s.Name != l.Section && s.Name != l.Also) {
				continue
			}
			for _, it := range s.Items {
				if it.Settled {
					t.folded = true
					continue // from the board: neither bounded by count nor noted when cut
				}
				list = append(list, it)
				for _, f := range it.fields(&buf) {
					if ClioCut(f.Text) {
						t.marked = append(t.marked, markdown.Span{Start: f.Span.End - len(TruncationMarker), End: f.Span.End})
					}
				}
			}
		}
		if len(list) > 0 {
			t.lists[l.Label] = list
		}
	}
	for _, it := range d.Items(BoundsApplied) {
		switch n := it.Note; {
		case n == nil:
		case n.List == "" && t.cut == nil:
			t.cut = it
		case n.List != "" && t.notes[n.List] == nil:
			t.notes[n.List] = it
		}
	}
	return t
}

func (c *checker) bounds() {
	t := c.tally()
	c.listBounds(t)
	c.stringBounds(t)
	c.notes(t)
}

func (c *checker) listBounds(t *tally) {
	for _, l := range Lists {
		items := t.lists[l.Label]
		if len(items) <= l.Bound {
			continue
		}
		past := items[l.Bound:]
		edits := make([]analysis.Edit, 0, 4) // the runs of items, and up to two notes
		removed := 0
		var buf [2]Field
		line := -1
		for _, it := range past {
			var e analysis.Edit
			e, line = c.removeItemAfter(it, line)
			// Items on lines that follow one another go in one edit: a list
			// 3,000 items past its bound is one deletion, not 3,000 (each
			// carried by the JSON output and the editor's code action).
			if n := len(edits); n > 0 && edits[n-1].Span.End == e.Span.Start {
				edits[n-1].Span.End = e.Span.End
			} else {
				edits = append(edits, e)
			}
			for _, f := range it.fields(&buf) {
				if ClioCut(f.Text) {
					removed++
				}
			}
		}
		of := len(items)
		if n := t.notes[l.Label]; n != nil {
			of = max(of, n.Note.Of)
		}
		noted := false
		if e, ok := c.noteEdit(t, l.Label, (&Note{List: l.Label, Kept: l.Bound, Of: of}).String()); ok {
			edits = append(edits, c.fit(e, edits...))
			noted = true
		}
		if removed > 0 && t.cut != nil {
			if text := cutText(len(t.marked) - removed); text == "" && noted {
				// The list's note keeps the section: drop the cut line only
				// (removing the section would swallow the note's insertion).
				edits = append(edits, c.removeItem(t.cut))
			} else if e, ok := c.noteEdit(t, "", text); ok {
				edits = append(edits, e)
			}
		}
		where := fmt.Sprintf("%q has %d %s", CanonicalHeading(l.Section), len(items), l.Noun[1])
		switch {
		case l.Also != "":
			where = fmt.Sprintf("%q and its dropped paths hold %d %s", CanonicalHeading(l.Section), len(items), l.Noun[1])
		case l.Label == "decisions":
			where += " (settled decisions aside)"
		}
		c.pass.Report(RuleListBound, past[0].Span,
			fmt.Sprintf("%s; a handoff keeps at most %d: this is the %s, past the bound", where, l.Bound, ordinal(l.Bound+1)),
			analysis.WithFix(analysis.Fix{
				Title: fmt.Sprintf("Drop the %d %s past the bound and note it under Bounds applied", len(past), l.Noun[min(len(past)-1, 1)]),
				Edits: edits,
			}))
	}
}

func (c *checker) stringBounds(t *tally) {
	for _, s := range c.d.Sections {
		if !s.Known || s.Glued || s.Name == BoundsApplied {
			continue
		}
		var buf [2]Field
		for _, it := range s.Items {
			for _, f := range it.fields(&buf) {
				// byteLen is never more than len: most strings need not be
				// counted.
				if len(f.Text) <= MaxStringBytes {
					continue
				}
				n := byteLen(f.Text)
				if n <= MaxStringBytes {
					continue
				}
				edits := []analysis.Edit{{Span: f.Span, NewText: cut(f.Text)}}
				if !it.Settled && !strings.HasSuffix(f.Text, TruncationMarker) {
					if e, ok := c.noteEdit(t, "", cutText(len(t.marked)+1)); ok {
						edits = append(edits, e)
					}
				}
				what := f.What
				if it.Kind == KindDecision {
					what = "decision's " + what
				} else if it.Kind == KindFile || it.Kind == KindCommand {
					what = it.Kind.String() + "'s " + what
				}
				c.pass.Report(RuleStringBound, f.Span,
					fmt.Sprintf("this %s is %s bytes; a handoff string is at most %d bytes, %s included", what, thousands(n), MaxStringBytes, TruncationMarker),
					analysis.WithFix(analysis.Fix{
						Title: fmt.Sprintf("Cut it to %d bytes and mark it %s", MaxStringBytes, TruncationMarker),
						Safe:  true,
						Edits: edits,
					}))
			}
		}
	}
}

func (c *checker) notes(t *tally) {
	if len(t.marked) > 0 && t.cut == nil {
		var opts []func(*analysis.Finding)
		for _, m := range t.marked[1:] {
			opts = append(opts, analysis.WithRelated(m, "also marked"))
		}
		if e, ok := c.noteEdit(t, "", cutText(len(t.marked))); ok {
			opts = append(opts, analysis.WithFix(analysis.Fix{Title: "Note the cut under Bounds applied", Safe: true, Edits: []analysis.Edit{e}}))
		}
		msg := "this string carries the " + TruncationMarker + " marker, but \"## Bounds applied\" does not say an entry was cut"
		if len(t.marked) > 1 {
			msg = fmt.Sprintf("%d strings carry the %s marker, but \"## Bounds applied\" does not say any entry was cut", len(t.marked), TruncationMarker)
		}
		c.pass.Report(RuleBoundsUnaccounted, t.marked[0], msg, opts...)
	}

	// stale reports a note; its fix rewrites the note as text, or removes
	// it when text is "".
	stale := func(it *Item, msg, text string) {
		fix := analysis.Fix{Title: "Rewrite the note: " + text, Safe: true, Edits: []analysis.Edit{{Span: it.TextSpan, NewText: text}}}
		if text == "" {
			fix = analysis.Fix{Title: "Remove the note", Safe: true, Edits: []analysis.Edit{c.removeNote(it)}}
		}
		c.pass.Report(RuleBoundsStale, it.Span, msg, analysis.WithFix(fix))
	}
	for _, it := range c.d.Items(BoundsApplied) {
		n := it.Note
		switch {
		case n == nil:
		case n.List == "" && it != t.cut:
			stale(it, "a second note about cut entries: keep one", "")
		case n.List == "":
			k := len(t.marked)
			switch {
			case n.Cut != k && !(t.folded && n.Cut > k):
				stale(it, fmt.Sprintf("this note says %d %s cut, but %d %s the %s marker as clio's cut leaves it (%d to %d bytes)", n.Cut, plural(n.Cut, "entry was", "entries were"), k, plural(k, "string carries", "strings carry"), TruncationMarker, MinCutBytes, MaxStringBytes), cutText(k))
			case it.Text != CutNote(n.Cut):
				stale(it, fmt.Sprintf("this note should read %q", CutNote(n.Cut)), CutNote(n.Cut))
			}
		case it != t.notes[n.List]:
			stale(it, fmt.Sprintf("a second note about the %s bound: keep one", n.List), "")
		default:
			l := listByLabel(n.List)
			count := len(t.lists[n.List])
			// clio folds extracted decisions that restate a board decision
			// into it after the bound, so with settled decisions fewer
			// may show than were kept.
			folds := n.List == "decisions" && t.folded && count > 0 && count < n.Kept
			// clio bounds decisions, files and commands before it
			// discards the records missing a required field, so fewer
			// may show than it kept (its own untouched output does).
			gaps := l.Records && count < n.Kept
			if (n.Kept == count || folds || gaps) && n.Of > n.Kept {
				continue
			}
			text := ""
			if count > 0 && count < n.Of {
				text = (&Note{List: n.List, Kept: count, Of: n.Of}).String()
			}
			var msg string
			if n.Of <= n.Kept {
				msg = fmt.Sprintf("this note says %d of %d %s were kept: nothing was dropped, so there is nothing to note", n.Kept, n.Of, l.Noun[1])
			} else {
				where := fmt.Sprintf("%q has %d", CanonicalHeading(l.Section), count)
				switch {
				case l.Also != "":
					where = fmt.Sprintf("%q and its dropped paths hold %d", CanonicalHeading(l.Section), count)
				case l.Label == "decisions":
					where += " (settled decisions aside)"
				}
				msg = fmt.Sprintf("this note says %d of %d %s were kept, but %s", n.Kept, n.Of, l.Noun[1], where)
			}
			stale(it, msg, text)
		}
	}
}

// noteEdit sets the note of a list (label "" for the cut note) to text,
// removing it when text is "": it rewrites the note there is, or adds one
// in clio's order (list notes in list order, the cut note last), creating
// the Bounds applied section when there is none. ok is false when there is
// nothing to do.
func (c *checker) noteEdit(t *tally, label, text string) (e analysis.Edit, ok bool) {
	cur := t.cut
	if label != "" {
		cur = t.notes[label]
	}
	switch {
	case cur != nil && text == "":
		return c.removeNote(cur), true
	case cur != nil:
		return analysis.Edit{Span: cur.TextSpan, NewText: text}, cur.Text != text
	case text == "":
		return analysis.Edit{}, false
	}
	line := "- " + text
	b := t.bounds
	if b == nil {
		return c.insertSection(c.sectionEnd(BoundsApplied), CanonicalHeading(BoundsApplied)+c.nl+c.nl+line), true
	}
	if label != "" {
		order := listIndex(label)
		for _, it := range b.Items {
			if n := it.Note; n != nil && (n.List == "" || listIndex(n.List) > order) {
				at := c.doc.Lines.LineStart(c.doc.Lines.LineOf(it.Span.Start))
				return analysis.Edit{Span: markdown.Span{Start: at, End: at}, NewText: line + c.nl}, true
			}
		}
	}
	return c.appendItem(b, line), true
}

// removeNote deletes a Bounds applied line, and the section with it when
// it is the section's only content.
func (c *checker) removeNote(it *Item) analysis.Edit {
	if s := c.d.SectionAt(it.Span.Start); s != nil && len(s.Items) == 1 && len(s.Stray) == 0 {
		return c.removeSection(s)
	}
	return c.removeItem(it)
}

// cutText is the cut note for k strings, or "" when there are none.
func cutText(k int) string {
	if k <= 0 {
		return ""
	}
	return CutNote(k)
}

func listByLabel(label string) List {
	return Lists[listIndex(label)]
}

func listIndex(label string) int {
	for i, l := range Lists {
		if l.Label == label {
			return i
		}
	}
	return len(Lists)
}

// byteLen is a string's length in UTF-8 bytes, with CRLF line breaks
// counted as the LF clio's string would hold.
func byteLen(s string) int {
	return len(s) - strings.Count(s, "\r\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// thousands writes n with comma separators.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
