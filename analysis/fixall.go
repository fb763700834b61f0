package analysis

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
// text.
func FixAll(analyze func(text string) *Result, text string) *Result {
	res, _ := FixAllCount(analyze, text)
	return res
}

// FixAllCount is FixAll, also counting the findings whose fixes it applied
// over every round ("3 fixed, 1 remaining").
func FixAllCount(analyze func(text string) *Result, text string) (res *Result, fixed int) {
	res = analyze(text)
	for range MaxFixRounds {
		edits, n := safeFixEdits(res.Doc.Text, res.Findings)
		if len(edits) == 0 {
			break
		}
		next, err := ApplyEdits(res.Doc.Text, edits)
		if err != nil || next == res.Doc.Text {
			break
		}
		fixed += n
		res = analyze(next)
	}
	return res, fixed
}

// SafeFixEdits gathers, finding by finding, the edits of each finding's
// first safe fix, skipping a fix whose edits overlap one already taken (or
// each other, or lie outside the text): the next round may take it.
func SafeFixEdits(text string, findings []Finding) []Edit {
	edits, _ := safeFixEdits(text, findings)
	return edits
}

// safeFixEdits is SafeFixEdits, also counting the findings whose fix it
// took.
func safeFixEdits(text string, findings []Finding) (taken []Edit, n int) {
	for _, f := range findings {
		for _, fix := range f.Fixes {
			if !fix.Safe {
				continue
			}
			if fits(text, taken, fix.Edits) {
				taken = append(taken, fix.Edits...)
				n++
			}
			break // only the first safe fix
		}
	}
	return taken, n
}

// fits reports whether edits lie inside text and overlap neither one another
// nor any of taken.
func fits(text string, taken, edits []Edit) bool {
	for i, e := range edits {
		if e.Span.Start < 0 || e.Span.End < e.Span.Start || e.Span.End > len(text) {
			return false
		}
		for _, o := range taken {
			if overlaps(e.Span, o.Span) {
				return false
			}
		}
		for _, o := range edits[:i] {
			if overlaps(e.Span, o.Span) {
				return false
			}
		}
	}
	return true
}

// overlaps reports whether two edits' spans overlap. Two insertions at the
// same place overlap too: their order would be arbitrary.
func overlaps(a, b Span) bool {
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
	return []Edit{{Span: Span{Start: p, End: len(old) - s}, NewText: new[p : len(new)-s]}}
}

func runeStart(s string, i int) bool { return i >= len(s) || s[i]&0xC0 != 0x80 }
