package analysis

import (
	"cmp"
	"slices"

	"github.com/baton-md/baton/markdown"
)

// One fix policy serves every entry point: `baton check --fix` and
// `--diff`, and the editor's "Fix all" (source.fixAll.baton) both apply
// FixAll, so they give the same document byte for byte.

// MaxFixRounds bounds how often FixAll re-analyses a fixed text to apply
// the safe fixes an earlier round's fixes made possible (or that
// overlapped one taken in the same round).
const MaxFixRounds = 5

// FixAll applies the safe fixes of the findings of text, then analyses the
// result and repeats, at most MaxFixRounds times, until no safe fix
// applies or one changes nothing. It returns the analysis of the final
// text. The findings past MaxFindings are fixed too: the cap is on what
// is reported.
func FixAll(analyze func(text string) *Result, text string) *Result {
	res, _ := FixAllCount(analyze, text)
	return res
}

// Fixing is what FixAllCount did to a text, for a summary such as
// "3 fixed, 1 remaining".
type Fixing struct {
	Fixed int // the findings whose safe fixes were applied, over every round
	// Unapplied is how many safe fixes a further round would apply: more
	// than none only when FixAll stopped after MaxFixRounds rounds.
	Unapplied int
}

// FixAllCount is FixAll, also saying how many findings it fixed and how
// many safe fixes it left when it stopped after MaxFixRounds rounds.
func FixAllCount(analyze func(text string) *Result, text string) (res *Result, fx Fixing) {
	res = analyze(text)
	for round := 0; ; round++ {
		edits, n := res.safeFixEdits()
		if len(edits) == 0 {
			return res, fx
		}
		next, err := ApplyEdits(res.Doc.Text, edits)
		if err != nil || next == res.Doc.Text {
			return res, fx
		}
		if round == MaxFixRounds {
			fx.Unapplied = n
			return res, fx
		}
		fx.Fixed += n
		// The last analysis (a whole tree: as large as the text's analysis
		// again) is let go before the fixed text is analysed: a named
		// result stays live through the call otherwise.
		res = nil
		res = analyze(next)
	}
}

// SafeFixEdits is the package function SafeFixEdits over every finding of
// the result, those past MaxFindings included.
func (r *Result) SafeFixEdits() []Edit {
	edits, _ := r.safeFixEdits()
	return edits
}

func (r *Result) safeFixEdits() ([]Edit, int) {
	var t taken
	for _, f := range r.Findings {
		if fix, ok := firstSafeFix(f); ok {
			t.take(len(r.Doc.Text), fix.Edits)
		}
	}
	for _, fix := range r.pastFixes {
		t.take(len(r.Doc.Text), fix.Edits)
	}
	return t.edits, t.n
}

// SafeFixEdits gathers, finding by finding, the edits of each finding's
// first safe fix, skipping a fix whose edits overlap one already taken (or
// each other, or lie outside the text): the next round may take it.
func SafeFixEdits(text string, findings []Finding) []Edit {
	var t taken
	for _, f := range findings {
		if fix, ok := firstSafeFix(f); ok {
			t.take(len(text), fix.Edits)
		}
	}
	return t.edits
}

// firstSafeFix is the finding's first safe fix, the only one fixing all
// applies.
func firstSafeFix(f Finding) (Fix, bool) {
	for _, fix := range f.Fixes {
		if fix.Safe {
			return fix, true
		}
	}
	return Fix{}, false
}

// taken is the edits of the fixes a round takes, in the order taken.
type taken struct {
	edits []Edit
	spans spanSet
	n     int // the fixes taken
}

// take takes a fix's edits unless one lies outside a text of textLen
// bytes or overlaps another of them or one already taken.
func (t *taken) take(textLen int, edits []Edit) {
	for i, e := range edits {
		if e.Span.Start < 0 || e.Span.End < e.Span.Start || e.Span.End > textLen || t.spans.overlaps(e.Span) {
			return
		}
		for _, o := range edits[:i] {
			if overlaps(e.Span, o.Span) {
				return
			}
		}
	}
	for _, e := range edits {
		t.spans.add(e.Span)
	}
	t.edits = append(t.edits, edits...)
	t.n++
}

// spanSet holds spans no two of which overlap, so that whether another
// overlaps one of them is a few binary searches whatever the order they
// came in: a document's every safe fix is taken in one round in time
// n log² n, where checking each against all taken was quadratic. The
// spans are in sorted runs of 1, 2, 4… (a run of each length or none),
// merged as a binary counter carries.
type spanSet struct {
	runs [][]markdown.Span // runs[i]: none, or 2^i spans sorted by start, then end
}

func (s *spanSet) add(sp markdown.Span) {
	carry := []markdown.Span{sp}
	for i := range s.runs {
		if s.runs[i] == nil {
			s.runs[i] = carry
			return
		}
		carry = mergeSpans(s.runs[i], carry)
		s.runs[i] = nil
	}
	s.runs = append(s.runs, carry)
}

func mergeSpans(a, b []markdown.Span) []markdown.Span {
	out := make([]markdown.Span, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if compareSpans(a[0], b[0]) <= 0 {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

func compareSpans(a, b markdown.Span) int {
	return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End))
}

// overlaps reports whether sp overlaps a span of the set. In a sorted run
// of spans that do not overlap, the ends are in order too; only the spans
// from the first ending at or after sp's start to the last starting at or
// before its end can overlap it, and at most two at each of its ends touch
// it without overlapping it.
func (s *spanSet) overlaps(sp markdown.Span) bool {
	for _, run := range s.runs {
		i, _ := slices.BinarySearchFunc(run, sp.Start, func(o markdown.Span, start int) int {
			if o.End < start {
				return -1
			}
			return 1
		})
		for ; i < len(run) && run[i].Start <= sp.End; i++ {
			if overlaps(sp, run[i]) {
				return true
			}
		}
	}
	return false
}

// overlaps reports whether two edits' spans overlap. Two insertions at the
// same place overlap too: their order would be arbitrary.
func overlaps(a, b markdown.Span) bool {
	return a.Start < b.End && b.Start < a.End || a == b
}

// DiffEdit is the one edit that turns old into new: the bytes between
// their common prefix and common suffix replaced (none when they are
// equal). The editor applies FixAll's result as this edit, so the
// document it gets is exactly FixAll's. The cut never splits a UTF-8
// sequence: positions convert to UTF-16 at the edge.
func DiffEdit(old, new string) []Edit {
	if old == new {
		return nil
	}
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	for p > 0 && !runeStart(old, p) {
		p--
	}
	s := 0
	for s < len(old)-p && s < len(new)-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	for s > 0 && !runeStart(old, len(old)-s) {
		s--
	}
	return []Edit{{Span: markdown.Span{Start: p, End: len(old) - s}, NewText: new[p : len(new)-s]}}
}

func runeStart(s string, i int) bool { return i >= len(s) || s[i]&0xC0 != 0x80 }
